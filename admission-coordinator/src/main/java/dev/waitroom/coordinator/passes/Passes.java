package dev.waitroom.coordinator.passes;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.EventNotFoundException;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.grants.Admission;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.Grant;
import dev.waitroom.coordinator.grants.GrantState;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.grants.ReleaseReason;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.VisitorId;
import java.security.MessageDigest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Staff and partner passes (table {@code passes}, docs/operating/allow-rules-and-passes.md): ops issue, list and revoke
 * them; a visitor presents one to open a shopping session that skips the queue. The session goes through the same
 * ledger as every offer ({@link Grants#insertPassSession}, under the event row lock), so passes never take an event
 * over its ceiling: at the ceiling the holder is told to try again ({@code at-ceiling}, 503 with Retry-After). Each
 * exchange checks the pass at the coordinator, so a revocation stops new sessions at once; revoking also ends the
 * pass's live sessions (registry first, as every release), and a renewal of one is refused.
 */
@Service
public class Passes {

    /** A holder label is free text for ops; plain and short. */
    public static final int MAX_HOLDER = 64;

    /** The longest a pass may be valid for. */
    public static final Duration MAX_VALIDITY = Duration.ofDays(30);

    /** The most sessions one pass may open. */
    public static final int MAX_USES = 10_000;

    /** How long a holder at the ceiling is told to wait before trying again. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private static final Logger OPS_AUDIT = LoggerFactory.getLogger("dev.waitroom.web.OpsAudit");

    /** Compared against when the id is unknown, so an unknown id costs the same comparison. */
    private static final byte[] NO_HASH = new byte[32];

    private static final String COLUMNS = "pass_id, event_id, holder, max_uses, uses, expires_at, created_at,"
            + " created_by, revoked_at, revoked_by, revoke_reason";

    private final JdbcClient jdbc;

    private final TransactionTemplate transactions;

    private final Events events;

    private final EventManagement management;

    private final Grants grants;

    private final Admissions admissions;

    private final Clock clock;

    Passes(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            Events events,
            EventManagement management,
            Grants grants,
            Admissions admissions,
            Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.events = events;
        this.management = management;
        this.grants = grants;
        this.admissions = admissions;
        this.clock = clock;
    }

    /** A new pass and its secret, which nothing can show again. */
    public record Issued(Pass pass, PassSecret secret) {}

    /**
     * Issues a pass of {@code event} for {@code holder}, valid until {@code expiresAt} (in the future, at most {@link
     * #MAX_VALIDITY} away) for {@code maxUses} sessions (default 1); audited with who and why.
     */
    public Issued issue(EventId event, String holder, Instant expiresAt, Integer maxUses, String actor, String reason) {
        String label = TextFields.required("holder", holder, MAX_HOLDER);
        String why = TextFields.optional("reason", reason, EventManagement.MAX_REASON);
        Instant now = this.clock.instant();
        if (expiresAt == null || !expiresAt.isAfter(now) || expiresAt.isAfter(now.plus(MAX_VALIDITY))) {
            throw new CoordinatorException(
                    ProblemType.MALFORMED_REQUEST,
                    "expiresAt is required: an ISO-8601 instant in the future, at most " + MAX_VALIDITY.toDays()
                            + " days away");
        }
        int uses = maxUses == null ? 1 : maxUses;
        if (uses < 1 || uses > MAX_USES) {
            throw new CoordinatorException(ProblemType.MALFORMED_REQUEST, "maxUses is 1.." + MAX_USES);
        }
        PassSecret secret = PassSecret.random();
        Pass issued = this.transactions.execute(status -> {
            Event e = event(event);
            if (e.phase() == EventPhase.ENDED) {
                throw new CoordinatorException(ProblemType.EVENT_ENDED, "Event " + event + " has ended.");
            }
            this.jdbc
                    .sql("""
                            insert into passes (pass_id, event_id, secret_sha256, holder, max_uses, expires_at,
                                created_at, created_by)
                            values (:id, :e, :hash, :holder, :max, :expires, :now, :actor)
                            """)
                    .param("id", secret.passId())
                    .param("e", event.value())
                    .param("hash", secret.sha256())
                    .param("holder", label)
                    .param("max", uses)
                    .param("expires", Timestamp.from(expiresAt))
                    .param("now", Timestamp.from(now))
                    .param("actor", actor)
                    .update();
            this.management.auditPass(
                    event,
                    "pass " + secret.passId() + " issued to " + label + " until " + expiresAt + " for " + uses
                            + (uses == 1 ? " session" : " sessions"),
                    actor,
                    why);
            return find(secret.passId()).orElseThrow();
        });
        OPS_AUDIT.info("Pass {} of event {} issued by {}", secret.passId(), event, actor);
        return new Issued(issued, secret);
    }

    /** The event's passes, newest first; 404 for an unknown event. */
    public List<Pass> list(EventId event) {
        event(event);
        return this.jdbc
                .sql("select " + COLUMNS + " from passes where event_id = :e order by created_at desc, pass_id")
                .param("e", event.value())
                .query(Passes::map)
                .list();
    }

    /**
     * Revokes a pass of {@code event} and ends the sessions it opened; idempotent (a revoked pass stays as it was
     * revoked, and its sessions are ended again if any is left); 404 {@code pass-not-found} for an id the event does
     * not have.
     */
    public Pass revoke(EventId event, String passId, String actor, String reason) {
        String why = TextFields.optional("reason", reason, EventManagement.MAX_REASON);
        event(event);
        Pass pass = this.transactions.execute(status -> {
            int changed = this.jdbc
                    .sql("""
                            update passes set revoked_at = :now, revoked_by = :actor, revoke_reason = :reason
                             where pass_id = :id and event_id = :e and revoked_at is null
                            """)
                    .param("now", Timestamp.from(this.clock.instant()))
                    .param("actor", actor)
                    .param("reason", why)
                    .param("id", passId)
                    .param("e", event.value())
                    .update();
            Pass found = find(passId)
                    .filter(p -> p.eventId().equals(event))
                    .orElseThrow(() -> new CoordinatorException(
                            ProblemType.PASS_NOT_FOUND, "Event " + event + " has no pass with that id."));
            if (changed == 1) {
                this.management.auditPass(event, "pass " + passId + " of " + found.holder() + " revoked", actor, why);
            }
            return found;
        });
        int ended = 0;
        for (Grant session : this.grants.liveOfPass(event, passId)) {
            if (this.admissions.release(session, ReleaseReason.LEFT)) {
                ended++;
            }
        }
        OPS_AUDIT.info("Pass {} of event {} revoked by {}: {} live sessions ended", passId, event, actor, ended);
        return pass;
    }

    /**
     * Opens a shopping session for {@code visitor} with the pass in {@code presented}, skipping the queue. Refused
     * with a problem for a malformed or unknown pass or a wrong secret ({@code pass-invalid}), another event's
     * ({@code pass-other-event}), an expired ({@code pass-expired}), revoked ({@code pass-revoked}) or used-up one
     * ({@code pass-used-up}); while the event is paused, sold out or ended as a claim is; at the ceiling with {@code
     * at-ceiling}. A repeat by the same visitor while the pass's session is live gets that session again without using
     * the pass once more.
     */
    public Admission exchange(EventId eventId, VisitorId visitor, String presented) {
        PassSecret secret = PassSecret.parse(presented)
                .orElseThrow(() -> new CoordinatorException(
                        ProblemType.PASS_INVALID, "A pass is " + PassSecret.PREFIX + "<16 hex>_<43 base64url>."));
        Event event = event(eventId);
        refuseUnlessAdmitting(event);
        Optional<Admission> repeat = repeat(event, visitor, secret);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        Grant session = this.transactions.execute(status -> {
            Grants.lockEvent(this.jdbc, eventId);
            Instant now = this.clock.instant();
            Pass pass = check(eventId, secret, now, true);
            Instant absolute = min(now.plus(event.config().sessionMax()), pass.expiresAt());
            Instant expires = min(now.plus(event.config().sessionTtl()), absolute);
            Optional<Grant> inserted = this.grants.insertPassSession(
                    eventId, pass.passId(), visitor, SessionId.random(), now, expires, absolute);
            if (inserted.isEmpty()) {
                Optional<Grant> live = this.grants.findLive(eventId, visitor);
                if (live.isPresent()) {
                    // the same browser's concurrent exchange won: its session, without another use
                    return ofThisPass(live.get(), secret).orElseThrow(Passes::notNeeded);
                }
                throw new CoordinatorException(
                        ProblemType.AT_CEILING,
                        "Every shopping session of the event is taken; a pass skips the queue, not the ceiling."
                                + " Try again in a few seconds.");
            }
            this.jdbc
                    .sql("update passes set uses = uses + 1 where pass_id = :id and uses < max_uses")
                    .param("id", pass.passId())
                    .update();
            return inserted.get();
        });
        return this.admissions.admitPass(event, session);
    }

    /**
     * The session this visitor already holds with this pass, with a fresh token; empty when it holds nothing live; a
     * {@code pass-not-needed} refusal when it holds an offer or another session.
     */
    private Optional<Admission> repeat(Event event, VisitorId visitor, PassSecret secret) {
        Optional<Grant> live = this.grants.findLive(event.id(), visitor);
        if (live.isEmpty()) {
            return Optional.empty();
        }
        Grant own = ofThisPass(live.get(), secret).orElseThrow(Passes::notNeeded);
        check(event.id(), secret, this.clock.instant(), false);
        return Optional.of(this.admissions.admitPass(event, own));
    }

    private static Optional<Grant> ofThisPass(Grant live, PassSecret secret) {
        return live.state() == GrantState.ACTIVE && secret.passId().equals(live.passId())
                ? Optional.of(live)
                : Optional.empty();
    }

    /** The stored pass {@code secret} names, checked; {@code forUse} also refuses one that has no use left. */
    private Pass check(EventId eventId, PassSecret secret, Instant now, boolean forUse) {
        Optional<Stored> stored = this.jdbc
                .sql("select " + COLUMNS + ", secret_sha256 from passes where pass_id = :id"
                        + (forUse ? " for update" : ""))
                .param("id", secret.passId())
                .query((rs, n) -> new Stored(map(rs, n), rs.getBytes("secret_sha256")))
                .optional();
        boolean matches = MessageDigest.isEqual(stored.map(Stored::hash).orElse(NO_HASH), secret.sha256());
        if (stored.isEmpty() || !matches) {
            throw new CoordinatorException(ProblemType.PASS_INVALID, "This pass is not one Waitroom issued.");
        }
        Pass pass = stored.get().pass();
        if (!pass.eventId().equals(eventId)) {
            throw new CoordinatorException(ProblemType.PASS_OTHER_EVENT, "This pass is for another event.");
        }
        switch (pass.stateAt(now)) {
            case REVOKED -> throw new CoordinatorException(ProblemType.PASS_REVOKED, "This pass was revoked.");
            case EXPIRED ->
                throw new CoordinatorException(ProblemType.PASS_EXPIRED, "This pass expired at " + pass.expiresAt());
            case USED_UP -> {
                if (forUse) {
                    throw new CoordinatorException(
                            ProblemType.PASS_USED_UP,
                            "This pass has opened its " + pass.maxUses()
                                    + (pass.maxUses() == 1 ? " session" : " sessions"));
                }
            }
            case VALID -> {
                // usable
            }
        }
        return pass;
    }

    private record Stored(Pass pass, byte[] hash) {}

    /** Passes open sessions while the sale admits: not while paused, sold out or ended. */
    private static void refuseUnlessAdmitting(Event event) {
        if (event.phase() == EventPhase.ENDED) {
            throw new CoordinatorException(ProblemType.EVENT_ENDED, "The sale has ended.");
        }
        if (event.mode() == OperatingMode.SOLD_OUT) {
            throw new CoordinatorException(ProblemType.SOLD_OUT, "The event is sold out.");
        }
        if (event.mode() == OperatingMode.PAUSED) {
            throw new CoordinatorException(
                    ProblemType.ADMISSION_PAUSED, "Admission is paused; the pass opens a session when it resumes.");
        }
    }

    private static CoordinatorException notNeeded() {
        return new CoordinatorException(
                ProblemType.PASS_NOT_NEEDED,
                "This browser already holds an offer or a shopping session of the event: claim or use it.");
    }

    private Optional<Pass> find(String passId) {
        return this.jdbc
                .sql("select " + COLUMNS + " from passes where pass_id = :id")
                .param("id", passId)
                .query(Passes::map)
                .optional();
    }

    private Event event(EventId id) {
        return this.events.find(id).orElseThrow(() -> new EventNotFoundException(id));
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Pass map(ResultSet rs, int n) throws SQLException {
        return new Pass(
                rs.getString("pass_id"),
                EventId.of(rs.getString("event_id")),
                rs.getString("holder"),
                rs.getInt("max_uses"),
                rs.getInt("uses"),
                rs.getTimestamp("expires_at").toInstant(),
                rs.getTimestamp("created_at").toInstant(),
                rs.getString("created_by"),
                instant(rs, "revoked_at"),
                rs.getString("revoked_by"),
                rs.getString("revoke_reason"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
