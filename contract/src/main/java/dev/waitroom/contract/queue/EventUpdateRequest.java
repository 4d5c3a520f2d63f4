package dev.waitroom.contract.queue;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * Body of {@code PUT /internal/events/{eventId}} ({@link QueuePaths#EVENT}): the event state the coordinator pushes on
 * every change and at least every 5 s. Only {@code phase} is required: a missing {@code mode} is QUEUEING, missing
 * policies are their defaults, missing numbers are 0 (for {@code maxJoinsPerSecond} and {@code proofOfWorkDifficulty}:
 * no join ceiling, no proof of work; {@link JoinGate}).
 *
 * <p>{@code phase}, {@code mode} and the three policies are Strings on purpose: the queue-service reads them itself
 * ({@link #validated()}, the typed readers) and answers an unknown name with its malformed-request problem naming the
 * field, not with a deserialisation error. The coordinator builds the body from its enums with {@link #of}.
 * {@code commitment} and {@code seed} are hex ({@code seed} null until revealed).
 */
public record EventUpdateRequest(
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
        Instant opensAt,
        Double maxJoinsPerSecond,
        Long proofOfWorkDifficulty) {

    public static final int MAX_ANNOUNCEMENT = 1000;

    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{2,256}");

    /** The body the coordinator sends, from its typed state. */
    public static EventUpdateRequest of(
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
            Instant opensAt,
            JoinGate joinGate) {
        return new EventUpdateRequest(
                phase.name(),
                mode.name(),
                announcement,
                saleGeneration,
                commitment,
                seed,
                identityScope.name(),
                expiredOfferPolicy.name(),
                presaleOrdering.name(),
                admissionRatePerSecond,
                offerTtlSeconds,
                opensAt,
                joinGate.maxJoinsPerSecond(),
                joinGate.proofOfWorkDifficulty());
    }

    /**
     * This body when its shape is sound, else a {@link MalformedValueException} (malformed request) naming the first
     * fault: phase missing, announcement too long, commitment or seed not hex, a rate that is negative or not finite,
     * a negative generation or offer TTL, then an unknown phase, mode or policy name.
     */
    public EventUpdateRequest validated() {
        if (phase == null) {
            throw new MalformedValueException("phase is required");
        }
        if (announcement != null && announcement.length() > MAX_ANNOUNCEMENT) {
            throw new MalformedValueException("announcement is limited to " + MAX_ANNOUNCEMENT + " characters");
        }
        if (commitment != null
                && !commitment.isEmpty()
                && !HEX.matcher(commitment).matches()) {
            throw new MalformedValueException("commitment is hex");
        }
        if (seed != null && !seed.isEmpty() && !HEX.matcher(seed).matches()) {
            throw new MalformedValueException("seed is hex");
        }
        double rate = admissionRatePerSecond == null ? 0 : admissionRatePerSecond;
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new MalformedValueException("admissionRatePerSecond is a finite number >= 0");
        }
        if ((saleGeneration != null && saleGeneration < 0) || (offerTtlSeconds != null && offerTtlSeconds < 0)) {
            throw new MalformedValueException("saleGeneration and offerTtlSeconds are >= 0");
        }
        joinGateValue();
        phaseValue();
        modeValue();
        identityScopeValue();
        expiredOfferPolicyValue();
        presaleOrderingValue();
        return this;
    }

    /** The join gate; missing numbers are 0 (no ceiling, no proof of work); out of range is a {@link MalformedValueException}. */
    public JoinGate joinGateValue() {
        return JoinGate.of(maxJoinsPerSecond, proofOfWorkDifficulty);
    }

    /** The phase; missing or unknown is a {@link MalformedValueException}. */
    public EventPhase phaseValue() {
        return EventPhase.parse(phase);
    }

    /** The mode, {@link OperatingMode#DEFAULT} when missing; unknown is a {@link MalformedValueException}. */
    public OperatingMode modeValue() {
        return mode == null ? OperatingMode.DEFAULT : OperatingMode.parse(mode);
    }

    public IdentityScope identityScopeValue() {
        return IdentityScope.parse(identityScope);
    }

    public ExpiredOfferPolicy expiredOfferPolicyValue() {
        return ExpiredOfferPolicy.parse(expiredOfferPolicy);
    }

    public PresaleOrdering presaleOrderingValue() {
        return PresaleOrdering.parse(presaleOrdering);
    }
}
