package dev.waitroom.coordinator.lanes;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Access codes (tables {@code access_codes}, {@code access_code_redemptions}; docs/operating/lanes-and-access-codes.md):
 * ops issue them per lane in batches and revoke a code or a batch; a visitor redeems one, which places their waiting
 * entry in the code's lane. A code allows a number of uses by distinct visitors: the use is counted under the code's
 * row lock, in the same transaction as the visitor's redemption record and the queue's move, so the last use goes to
 * exactly one visitor and a move the queue refuses (no place, not waiting) spends nothing. A visitor redeeming the
 * same code again spends no second use.
 */
@Service
public class AccessCodes {

    /** The most codes one call issues. */
    public static final int MAX_BATCH = 1000;

    /** The most uses one code allows. */
    public static final int MAX_USES = 100_000;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcClient jdbc;

    private final TransactionTemplate transactions;

    private final Lanes lanes;

    private final EventManagement events;

    private final QueueDirectory queue;

    private final Clock clock;

    private final MeterRegistry meters;

    private final Map<String, Counter> redemptions = new ConcurrentHashMap<>();

    AccessCodes(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            Lanes lanes,
            EventManagement events,
            QueueDirectory queue,
            Clock clock,
            MeterRegistry meters) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.lanes = lanes;
        this.events = events;
        this.queue = queue;
        this.clock = clock;
        this.meters = meters;
    }

    /** A batch just issued: the codes are in this answer only. */
    public record Issued(String batchId, LaneName lane, int usesPerCode, Instant expiresAt, List<String> codes) {}

    /** A redemption: the lane the visitor now stands in, and whether this call spent a use. */
    public record Redeemed(LaneName lane, String state, boolean usedNow) {}

    /** One lane's codes as ops see them: how many issued, how many uses allowed and spent, how many revoked. */
    public record LaneCodes(long codes, long usesAllowed, long uses, long revoked) {}

    public Issued issue(
            EventId id, LaneName lane, int count, int usesPerCode, Instant expiresAt, String actor, String reason) {
        this.events.get(id);
        if (lane.isGeneral() || !this.lanes.of(id).has(lane)) {
            throw new CoordinatorException(ProblemType.UNKNOWN_LANE, "The event declares no lane '" + lane + "'.");
        }
        if (count < 1 || count > MAX_BATCH) {
            throw invalid("count must be 1.." + MAX_BATCH);
        }
        if (usesPerCode < 1 || usesPerCode > MAX_USES) {
            throw invalid("usesPerCode must be 1.." + MAX_USES);
        }
        if (expiresAt != null && !expiresAt.isAfter(this.clock.instant())) {
            throw invalid("expiresAt must be in the future");
        }
        String batch = HexFormat.of().formatHex(randomBytes(8));
        List<String> codes = new ArrayList<>(count);
        this.transactions.executeWithoutResult(status -> {
            for (int i = 0; i < count; i++) {
                AccessCode code = AccessCode.random();
                this.jdbc
                        .sql("""
                        insert into access_codes (code_sha256, event_id, lane, batch_id, uses_allowed, expires_at,
                            created_by)
                        values (:hash, :event, :lane, :batch, :uses, :expires, :actor)
                        """)
                        .param("hash", code.sha256())
                        .param("event", id.value())
                        .param("lane", lane.value())
                        .param("batch", batch)
                        .param("uses", usesPerCode)
                        .param("expires", expiresAt == null ? null : Timestamp.from(expiresAt))
                        .param("actor", actor)
                        .update();
                codes.add(code.display());
            }
            this.events.auditConfig(
                    id,
                    "access codes issued",
                    actor,
                    count + " codes of lane " + lane + ", batch " + batch + ", " + usesPerCode + " uses each"
                            + (expiresAt == null ? "" : ", until " + expiresAt) + ": " + reason);
        });
        return new Issued(batch, lane, usesPerCode, expiresAt, List.copyOf(codes));
    }

    /** Revokes every live code of a batch; answers how many were revoked (0 when none was live). */
    public int revokeBatch(EventId id, LaneName lane, String batchId, String actor, String reason) {
        this.events.get(id);
        return this.transactions.execute(status -> {
            int revoked = this.jdbc
                    .sql("""
                    update access_codes set revoked_at = now(), revoked_by = :actor, revoke_reason = :reason
                    where event_id = :event and lane = :lane and batch_id = :batch and revoked_at is null
                    """)
                    .param("actor", actor)
                    .param("reason", reason)
                    .param("event", id.value())
                    .param("lane", lane.value())
                    .param("batch", batchId)
                    .update();
            this.events.auditConfig(
                    id, "access codes revoked", actor, revoked + " codes of batch " + batchId + ": " + reason);
            return revoked;
        });
    }

    /** Revokes one code; answers false when the event's lane has no such live code. */
    public boolean revokeCode(EventId id, LaneName lane, String typed, String actor, String reason) {
        this.events.get(id);
        AccessCode code = AccessCode.parse(typed);
        if (code == null) {
            return false;
        }
        return this.transactions.execute(status -> {
            int revoked = this.jdbc
                    .sql("""
                    update access_codes set revoked_at = now(), revoked_by = :actor, revoke_reason = :reason
                    where code_sha256 = :hash and event_id = :event and lane = :lane and revoked_at is null
                    """)
                    .param("actor", actor)
                    .param("reason", reason)
                    .param("hash", code.sha256())
                    .param("event", id.value())
                    .param("lane", lane.value())
                    .update();
            if (revoked == 1) {
                this.events.auditConfig(id, "access code revoked", actor, "one code of lane " + lane + ": " + reason);
            }
            return revoked == 1;
        });
    }

    /** The codes of each declared lane of the event. */
    public Map<LaneName, LaneCodes> summary(EventId id) {
        Map<LaneName, LaneCodes> out = new java.util.LinkedHashMap<>();
        this.jdbc
                .sql("""
                select lane, count(*) as codes, sum(uses_allowed) as allowed, sum(uses) as uses,
                    count(revoked_at) as revoked
                from access_codes where event_id = :event group by lane
                """)
                .param("event", id.value())
                .query((rs, n) -> out.put(
                        LaneName.of(rs.getString("lane")),
                        new LaneCodes(
                                rs.getLong("codes"), rs.getLong("allowed"), rs.getLong("uses"), rs.getLong("revoked"))))
                .list();
        return out;
    }

    /**
     * Redeems {@code typed} for the visitor: {@code code-invalid} when it is no code of this event (forged, mistyped
     * or another event's: told apart from none), {@code code-revoked}, {@code code-expired}, {@code code-used-up};
     * the queue's refusal ({@code not-in-queue}, {@code state-conflict}) spends nothing.
     */
    public Redeemed redeem(EventId id, VisitorId visitor, String account, String typed) {
        AccessCode code = AccessCode.parse(typed);
        if (code == null) {
            throw refused("unknown", "invalid", ProblemType.CODE_INVALID, "This access code is not accepted here.");
        }
        byte[] hash = code.sha256();
        Redeemed redeemed = this.transactions.execute(status -> {
            CodeRow row = this.jdbc
                    .sql("""
                    select event_id, lane, revoked_at is not null as revoked,
                        expires_at is not null and expires_at <= now() as expired
                    from access_codes where code_sha256 = :hash for update
                    """)
                    .param("hash", hash)
                    .query((rs, n) -> new CodeRow(
                            rs.getString("event_id"),
                            rs.getString("lane"),
                            rs.getBoolean("revoked"),
                            rs.getBoolean("expired")))
                    .optional()
                    .orElse(null);
            if (row == null || !row.event().equals(id.value())) {
                throw refused("unknown", "invalid", ProblemType.CODE_INVALID, "This access code is not accepted here.");
            }
            if (row.revoked()) {
                throw refused(row.lane(), "revoked", ProblemType.CODE_REVOKED, "This access code was withdrawn.");
            }
            if (row.expired()) {
                throw refused(row.lane(), "expired", ProblemType.CODE_EXPIRED, "This access code has expired.");
            }
            boolean again = this.jdbc
                    .sql("""
                    select exists (select 1 from access_code_redemptions
                        where code_sha256 = :hash and visitor_id = :visitor)
                    """)
                    .param("hash", hash)
                    .param("visitor", visitor.value())
                    .query(Boolean.class)
                    .single();
            if (!again) {
                int counted = this.jdbc
                        .sql(
                                "update access_codes set uses = uses + 1 where code_sha256 = :hash and uses < uses_allowed")
                        .param("hash", hash)
                        .update();
                if (counted == 0) {
                    throw refused(
                            row.lane(), "used-up", ProblemType.CODE_USED_UP, "This access code has no uses left.");
                }
                this.jdbc
                        .sql("insert into access_code_redemptions (code_sha256, visitor_id) values (:hash, :visitor)")
                        .param("hash", hash)
                        .param("visitor", visitor.value())
                        .update();
            }
            LaneMoveResult moved = this.queue.moveToLane(id, visitor, account, row.lane());
            return new Redeemed(LaneName.of(row.lane()), moved.state(), !again);
        });
        count(redeemed.lane().value(), redeemed.usedNow() ? "redeemed" : "repeated");
        return redeemed;
    }

    private record CodeRow(String event, String lane, boolean revoked, boolean expired) {}

    private CoordinatorException refused(String lane, String outcome, ProblemType problem, String detail) {
        count(lane, outcome);
        return new CoordinatorException(problem, detail);
    }

    private void count(String lane, String outcome) {
        this.redemptions
                .computeIfAbsent(
                        lane + "|" + outcome,
                        k -> Counter.builder("waitroom.access.code.redemptions")
                                .description(
                                        "Access code redemptions by lane and outcome (docs/operating/lanes-and-access-codes.md)")
                                .tag("lane", lane)
                                .tag("outcome", outcome)
                                .register(this.meters))
                .increment();
    }

    private static CoordinatorException invalid(String message) {
        return new CoordinatorException(ProblemType.INVALID_LANES, message);
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
