package dev.waitroom.queue.event;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import java.time.Instant;

/**
 * The event state the coordinator pushes (PUT /internal/events/{e}), validated; as stored, the part of
 * {@link EventState} it pushed.
 */
public record EventUpdate(
        EventPhase phase,
        OperatingMode mode,
        String announcement,
        long saleGeneration,
        String commitment,
        String seed,
        IdentityScope identityScope,
        ExpiredOfferPolicy expiredOfferPolicy,
        PresaleOrdering presaleOrdering,
        double admissionRatePerSecond,
        long offerTtlSeconds,
        Instant opensAt) {}
