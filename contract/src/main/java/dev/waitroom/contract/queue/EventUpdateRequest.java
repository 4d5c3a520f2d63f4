package dev.waitroom.contract.queue;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Body of {@code PUT /internal/events/{eventId}} ({@link QueuePaths#EVENT}): the event state the coordinator pushes on
 * every change and at least every 5 s, and the one record of it in the system: the coordinator sends it, the
 * queue-service keeps it as received (validated, normalised) in its stored event, and the gateway's {@link QueueSnapshot}
 * carries the part the edge needs. Only {@code phase} is required: a missing {@code mode} is QUEUEING, missing
 * policies are their defaults, missing numbers are 0 (for {@code maxJoinsPerSecond} and {@code proofOfWorkDifficulty}:
 * no join ceiling, no proof of work; {@link JoinGate}). {@code name}, {@code afterPurchase} and {@code soldOutCategories}
 * are what the page publishes (issue 17): missing is no name, {@link AfterPurchase#DEFAULT} and none sold out.
 * {@code pace} is the offer pace the coordinator measured ({@link Pace}, docs/design/estimates.md); missing is none measured.
 *
 * <p>{@code phase}, {@code mode} and the three policies are Strings on purpose: the queue-service reads them itself
 * ({@link #validated()}, the typed readers) and answers an unknown name with its malformed-request problem naming the
 * field, not with a deserialisation error. The coordinator builds the body from its enums with {@link #of}.
 * {@code commitment} and {@code seed} are hex ({@code seed} null until revealed). {@code modeStatement} is the
 * coordinator's signature of the mode (a compact JWS, shared-tokens {@code ModeStatement}), stored opaque and returned in
 * the snapshot: the gateway honours BYPASS only on a statement that verifies (docs/design/security/signed-mode.md).
 * {@code admissionHold} says why offers are held back while the event is open ({@link AdmissionHold}; missing: they
 * are not), carried to the snapshot and the visitor status for the page.
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
        Long proofOfWorkDifficulty,
        String name,
        String afterPurchase,
        List<String> soldOutCategories,
        Pace pace,
        String modeStatement,
        AdmissionHold admissionHold) {

    public static final int MAX_ANNOUNCEMENT = 1000;

    /** The longest mode statement stored: a signed statement is about 330 characters. */
    public static final int MAX_MODE_STATEMENT = 1024;

    /** The characters of a compact JWS: three base64url parts. */
    private static final Pattern COMPACT_JWS = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

    /** The longest event name, in characters (the coordinator's own limit). */
    public static final int MAX_NAME = 200;

    /** Seat categories named at most. */
    public static final int MAX_CATEGORIES = 100;

    /** A seat category's name as booking and the page show it. */
    public static final Pattern CATEGORY = Pattern.compile("[\\p{L}\\p{N}_. -]{1,64}");

    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{2,256}");

    /** The body the coordinator sends, from its typed state and the pace it measured (null: none measured). */
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
            JoinGate joinGate,
            String name,
            AfterPurchase afterPurchase,
            List<String> soldOutCategories,
            Pace pace) {
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
                joinGate.proofOfWorkDifficulty(),
                name,
                afterPurchase.name(),
                soldOutCategories == null ? List.of() : List.copyOf(soldOutCategories),
                pace,
                null,
                null);
    }

    /** This body with the coordinator's signed statement of its mode. */
    public EventUpdateRequest withModeStatement(String statement) {
        return new EventUpdateRequest(
                phase,
                mode,
                announcement,
                saleGeneration,
                commitment,
                seed,
                identityScope,
                expiredOfferPolicy,
                presaleOrdering,
                admissionRatePerSecond,
                offerTtlSeconds,
                opensAt,
                maxJoinsPerSecond,
                proofOfWorkDifficulty,
                name,
                afterPurchase,
                soldOutCategories,
                pace,
                statement,
                admissionHold);
    }

    /**
     * This body with why offers are held back ({@link AdmissionHold}, null: they are not), which the page says in
     * plain language (docs/operating/schedules-and-pauses.md).
     */
    public EventUpdateRequest withAdmissionHold(AdmissionHold hold) {
        return new EventUpdateRequest(
                phase,
                mode,
                announcement,
                saleGeneration,
                commitment,
                seed,
                identityScope,
                expiredOfferPolicy,
                presaleOrdering,
                admissionRatePerSecond,
                offerTtlSeconds,
                opensAt,
                maxJoinsPerSecond,
                proofOfWorkDifficulty,
                name,
                afterPurchase,
                soldOutCategories,
                pace,
                modeStatement,
                hold);
    }

    /**
     * This body when its shape is sound, else a {@link MalformedValueException} (malformed request) naming the first
     * fault: phase missing, announcement too long, commitment or seed not hex, a rate that is negative or not finite,
     * a negative generation or offer TTL, a pace out of range ({@link Pace#validated}), then an unknown phase, mode or
     * policy name.
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
        double rate = admissionRatePerSecondValue();
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new MalformedValueException("admissionRatePerSecond is a finite number >= 0");
        }
        if ((saleGeneration != null && saleGeneration < 0) || (offerTtlSeconds != null && offerTtlSeconds < 0)) {
            throw new MalformedValueException("saleGeneration and offerTtlSeconds are >= 0");
        }
        joinGateValue();
        if (name != null && name.length() > MAX_NAME) {
            throw new MalformedValueException("name is limited to " + MAX_NAME + " characters");
        }
        if (soldOutCategories != null) {
            if (soldOutCategories.size() > MAX_CATEGORIES) {
                throw new MalformedValueException("soldOutCategories holds at most " + MAX_CATEGORIES + " names");
            }
            for (String category : soldOutCategories) {
                if (category == null || !CATEGORY.matcher(category).matches()) {
                    throw new MalformedValueException("a sold-out category is 1-64 of letters, digits, space, _ . -");
                }
            }
        }
        if (pace != null) {
            pace.validated();
        }
        if (modeStatement != null
                && !modeStatement.isEmpty()
                && (modeStatement.length() > MAX_MODE_STATEMENT
                        || !COMPACT_JWS.matcher(modeStatement).matches())) {
            throw new MalformedValueException(
                    "modeStatement is a compact JWS of at most " + MAX_MODE_STATEMENT + " characters");
        }
        if (admissionHold != null) {
            admissionHold.validated();
        }
        afterPurchaseValue();
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

    /** After a purchase, {@link AfterPurchase#DEFAULT} when missing; unknown is a {@link MalformedValueException}. */
    public AfterPurchase afterPurchaseValue() {
        return AfterPurchase.parse(afterPurchase);
    }

    /** The sale round, 0 when missing (a push that named no generation: only tests send one). */
    public long saleGenerationValue() {
        return saleGeneration == null ? 0 : saleGeneration;
    }

    /** The admission rate, 0 when missing. */
    public double admissionRatePerSecondValue() {
        return admissionRatePerSecond == null ? 0 : admissionRatePerSecond;
    }

    /** The offer TTL, 0 when missing. */
    public long offerTtlSecondsValue() {
        return offerTtlSeconds == null ? 0 : offerTtlSeconds;
    }

    /** The sold-out seat categories, empty when missing. */
    public List<String> soldOutCategoriesValue() {
        return soldOutCategories == null ? List.of() : soldOutCategories;
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
