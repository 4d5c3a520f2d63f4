package dev.waitroom.queue.event;

import dev.waitroom.queue.contract.ExpiredOfferPolicy;
import dev.waitroom.queue.contract.IdentityScope;
import dev.waitroom.queue.contract.MalformedInputException;
import dev.waitroom.queue.contract.Mode;
import dev.waitroom.queue.contract.Phase;
import dev.waitroom.queue.contract.PresaleOrdering;
import java.time.Instant;
import java.util.regex.Pattern;

/** Body of PUT /internal/events/{e}, as the coordinator pushes it (docs/CONTRACTS.md). */
record EventBody(
        String phase,
        String mode,
        String announcement,
        Long saleGeneration,
        String commitment,
        String seed,
        String identityScope,
        String expiredOfferPolicy,
        String presaleOrdering,
        Double admissionRatePerSecond,
        Long offerTtlSeconds,
        Instant opensAt) {

    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{2,256}");
    private static final int MAX_ANNOUNCEMENT = 1000;

    EventUpdate toUpdate() {
        if (phase == null) {
            throw new MalformedInputException("phase is required");
        }
        if (announcement != null && announcement.length() > MAX_ANNOUNCEMENT) {
            throw new MalformedInputException("announcement is limited to " + MAX_ANNOUNCEMENT + " characters");
        }
        if (commitment != null && !commitment.isEmpty() && !HEX.matcher(commitment).matches()) {
            throw new MalformedInputException("commitment is hex");
        }
        if (seed != null && !seed.isEmpty() && !HEX.matcher(seed).matches()) {
            throw new MalformedInputException("seed is hex");
        }
        double rate = admissionRatePerSecond == null ? 0 : admissionRatePerSecond;
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new MalformedInputException("admissionRatePerSecond is a finite number >= 0");
        }
        long generation = saleGeneration == null ? 0 : saleGeneration;
        long ttl = offerTtlSeconds == null ? 0 : offerTtlSeconds;
        if (generation < 0 || ttl < 0) {
            throw new MalformedInputException("saleGeneration and offerTtlSeconds are >= 0");
        }
        return new EventUpdate(Phase.parse(phase), mode == null ? Mode.QUEUEING : Mode.parse(mode), announcement,
                generation, emptyToNull(commitment), emptyToNull(seed), IdentityScope.parse(identityScope),
                ExpiredOfferPolicy.parse(expiredOfferPolicy), PresaleOrdering.parse(presaleOrdering), rate, ttl, opensAt);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s.toLowerCase();
    }
}
