package dev.waitroom.coordinator.event;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The configurable part of an event (docs/design/architecture.md#ops-api). Validates itself. */
public record EventConfig(
        String name,
        Instant opensAt,
        int maxActiveSessions,
        double maxAdmissionsPerSecond,
        int batchMax,
        Duration offerTtl,
        Duration sessionTtl,
        Duration sessionMax,
        PresaleOrdering presaleOrdering,
        IdentityScope identityScope,
        ExpiredOfferPolicy expiredOfferPolicy,
        AfterPurchase afterPurchase,
        double maxJoinsPerSecond,
        long proofOfWorkDifficulty) {

    static final int MAX_CEILING = 1_000_000;

    /** The longest event name, in characters. */
    public static final int MAX_NAME = 200;

    public EventConfig {
        // one line of plain text: a NUL reached PostgreSQL (503) before; control characters and bidi marks garble
        // the ops view and the logs
        name = TextFields.required(ProblemType.INVALID_EVENT_CONFIG, "name", name, MAX_NAME);
        require(maxActiveSessions > 0 && maxActiveSessions <= MAX_CEILING, "maxActiveSessions must be 1..1000000");
        require(
                maxAdmissionsPerSecond > 0 && maxAdmissionsPerSecond <= 100_000,
                "maxAdmissionsPerSecond must be > 0 and <= 100000");
        require(batchMax > 0 && batchMax <= 1000, "batchMax must be 1..1000 (the queue answers at most 1000 per call)");
        require(positive(offerTtl) && offerTtl.toSeconds() <= 3600, "offerTtlSeconds must be 1..3600");
        require(positive(sessionTtl), "sessionTtlSeconds must be positive");
        require(
                positive(sessionMax) && sessionMax.compareTo(sessionTtl) >= 0 && sessionMax.toHours() <= 24,
                "sessionMaxSeconds must be >= sessionTtlSeconds and at most 24 h");
        require(
                presaleOrdering != null && identityScope != null && expiredOfferPolicy != null && afterPurchase != null,
                "policies are required");
        // the join gate's own limits (contract JoinGate), answered as this event's config problem naming the field
        require(
                maxJoinsPerSecond >= 0 && maxJoinsPerSecond <= JoinGate.MAX_JOINS_PER_SECOND,
                "maxJoinsPerSecond must be 0 (no ceiling) .. " + (long) JoinGate.MAX_JOINS_PER_SECOND);
        require(
                proofOfWorkDifficulty >= 0 && proofOfWorkDifficulty <= JoinGate.MAX_PROOF_OF_WORK_DIFFICULTY,
                "proofOfWorkDifficulty must be 0 (off) .. " + JoinGate.MAX_PROOF_OF_WORK_DIFFICULTY);
    }

    /** The join ceiling and proof-of-work difficulty, as pushed to the queue and on to the gateway. */
    public JoinGate joinGate() {
        return new JoinGate(maxJoinsPerSecond, proofOfWorkDifficulty);
    }

    /**
     * What {@code next} changes, one "field from -> to" per field in the ops API's names, for the audit; the name's
     * text is left out (it is long and would repeat in every line), the fact that it changed is not.
     */
    public List<String> changesTo(EventConfig next) {
        List<String> changes = new ArrayList<>();
        if (!this.name.equals(next.name)) {
            changes.add("name");
        }
        change(changes, "opensAt", this.opensAt, next.opensAt);
        change(changes, "maxActiveSessions", this.maxActiveSessions, next.maxActiveSessions);
        change(changes, "maxAdmissionsPerSecond", this.maxAdmissionsPerSecond, next.maxAdmissionsPerSecond);
        change(changes, "batchMax", this.batchMax, next.batchMax);
        change(changes, "offerTtlSeconds", this.offerTtl.toSeconds(), next.offerTtl.toSeconds());
        change(changes, "sessionTtlSeconds", this.sessionTtl.toSeconds(), next.sessionTtl.toSeconds());
        change(changes, "sessionMaxSeconds", this.sessionMax.toSeconds(), next.sessionMax.toSeconds());
        for (SaleRule rule : SaleRule.values()) {
            change(changes, rule.field(), rule.of(this), rule.of(next));
        }
        change(changes, "maxJoinsPerSecond", this.maxJoinsPerSecond, next.maxJoinsPerSecond);
        change(changes, "proofOfWorkDifficulty", this.proofOfWorkDifficulty, next.proofOfWorkDifficulty);
        return changes;
    }

    private static void change(List<String> changes, String field, Object from, Object to) {
        if (!Objects.equals(from, to)) {
            changes.add(field + " " + from + " -> " + to);
        }
    }

    private static boolean positive(Duration d) {
        return d != null && d.toSeconds() > 0;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new CoordinatorException(ProblemType.INVALID_EVENT_CONFIG, message);
        }
    }
}
