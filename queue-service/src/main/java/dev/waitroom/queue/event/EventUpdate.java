package dev.waitroom.queue.event;

import dev.waitroom.queue.contract.ExpiredOfferPolicy;
import dev.waitroom.queue.contract.IdentityScope;
import dev.waitroom.queue.contract.Mode;
import dev.waitroom.queue.contract.Phase;
import dev.waitroom.queue.contract.PresaleOrdering;
import java.time.Instant;

/** The event state the coordinator pushes (PUT /internal/events/{e}); already validated. */
public record EventUpdate(
        Phase phase,
        Mode mode,
        String announcement,
        long saleGeneration,
        String commitment,
        String seed,
        IdentityScope identityScope,
        ExpiredOfferPolicy expiredOfferPolicy,
        PresaleOrdering presaleOrdering,
        double admissionRatePerSecond,
        long offerTtlSeconds,
        Instant opensAt) {
}
