package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.coordinator.SqlLiterals;
import dev.waitroom.coordinator.event.DrawState;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.tokens.VisitorId;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Grant rows. Each state change is one conditional statement naming the state it expects (and, for offers, the
 * fencing generation) and the caller checks the rows it changed.
 */
@Repository
public class Grants {

    private static final String COLUMNS = """
            id, event_id, visitor, entry_id, order_key, generation, state, offered_at, offer_expires_at, session_id,
            session_visitor, activated_at, session_expires_at, absolute_expires_at, purchased_at, released_at,
            release_reason, queue_synced_state, sale_generation, region, pass_id
            """;

    private static final String OFFERED = SqlLiterals.of(GrantState.OFFERED);

    private static final String PASS_ENTRY_PREFIX = "pass:";

    private static final String ACTIVE = SqlLiterals.of(GrantState.ACTIVE);

    /** The live states, as the partial indexes on grants name them. */
    private static final String LIVE = SqlLiterals.list(GrantState.LIVE);

    /**
     * The fenced allocation: inserts the whole batch only if this owner still holds the lease of the event in its region
     * with this generation (on database time), the event is open and queueing, and the batch fits. Runs after the event
     * row is locked, so concurrent allocations and budget changes for one event are serialised and each counts the
     * other's rows. The ledger rule (docs/operating/regions.md): central live grants plus, per region, the greater of its slots
     * and its live grants never exceed the ceiling; the central gate's batch counts against the ceiling, a region's
     * against its own slots (leased under the same generation).
     */
    private static final String INSERT_OFFERS = """
            with p as (select ?::text as event, ?::text as region, ?::integer as n, ?::bigint as gen, ?::text as owner),
            ledger as (
                select
                    (select count(*) from grants g
                     where g.event_id = p.event and g.region = '' and g.state in (%1$s)) as central,
                    (select count(*) from grants g
                     where g.event_id = p.event and g.region = p.region and g.state in (%1$s)) as mine,
                    (select coalesce(sum(greatest(b.slots, (select count(*) from grants g
                         where g.event_id = b.event_id and g.region = b.region and g.state in (%1$s)))), 0)
                     from region_budgets b where b.event_id = p.event) as held,
                    (select b.slots from region_budgets b
                     where b.event_id = p.event and b.region = p.region and b.generation = p.gen) as slots,
                    (select e.max_active_sessions from events e where e.event_id = p.event) as ceiling
                from p)
            insert into grants (id, event_id, region, visitor, entry_id, order_key, generation, state, offered_at,
                offer_expires_at, sale_generation)
            select c.id, p.event, p.region, c.visitor, c.entry_id, c.order_key, p.gen, %2$s, ?, ?,
                (select e.sale_generation from events e where e.event_id = p.event)
            from p, ledger, unnest(?::uuid[], ?::text[], ?::text[], ?::bigint[]) as c (id, visitor, entry_id, order_key)
            where exists (select 1 from leases l
                          where l.event_id = p.event and l.region = p.region and l.owner = p.owner
                            and l.generation = p.gen and l.expires_at > clock_timestamp())
              and exists (select 1 from events e where e.event_id = p.event and e.phase = %3$s and e.mode = %4$s
                          and %5$s)
              and ledger.central + ledger.held + case when p.region = '' then p.n else 0 end <= ledger.ceiling
              and (p.region = '' or ledger.mine + p.n <= coalesce(ledger.slots, -1))
            on conflict do nothing
            returning %6$s""".formatted(
                    LIVE,
                    OFFERED,
                    SqlLiterals.of(EventPhase.OPEN),
                    SqlLiterals.of(OperatingMode.QUEUEING),
                    Events.drawIs(DrawState.DRAWN, "e"),
                    COLUMNS);

    /**
     * A staff or partner pass's session (docs/operating/allow-rules-and-passes.md): an ACTIVE grant inserted at once,
     * with no offer before it, under the same ledger rule as {@link #INSERT_OFFERS} (so it counts against the ceiling
     * and never goes over it), after the event row is locked. No lease is needed: nothing is offered from the queue,
     * and the row lock serialises it with every allocation; its generation is the event's latest lease's (1 before any
     * lease). The queue never hears of it (its entry id is the pass's,
     * {@code queue_synced_state} is its state from the start).
     */
    private static final String INSERT_PASS_SESSION = """
            with p as (select :e::text as event, :region::text as region),
            ledger as (
                select
                    (select count(*) from grants g
                     where g.event_id = p.event and g.region = '' and g.state in (%1$s)) as central,
                    (select count(*) from grants g
                     where g.event_id = p.event and g.region = p.region and g.state in (%1$s)) as mine,
                    (select coalesce(sum(greatest(b.slots, (select count(*) from grants g
                         where g.event_id = b.event_id and g.region = b.region and g.state in (%1$s)))), 0)
                     from region_budgets b where b.event_id = p.event) as held,
                    (select max(b.slots) from region_budgets b
                     where b.event_id = p.event and b.region = p.region) as slots,
                    (select e.max_active_sessions from events e where e.event_id = p.event) as ceiling
                from p)
            insert into grants (id, event_id, region, visitor, entry_id, order_key, generation, state, offered_at,
                offer_expires_at, session_id, session_visitor, activated_at, session_expires_at, absolute_expires_at,
                sale_generation, queue_synced_state, pass_id)
            select :id, p.event, p.region, :v, :entry, 0,
                (select coalesce(max(l.generation), 1) from leases l where l.event_id = p.event), %2$s, :now, :now,
                :sid, :v, :now, :sessionExpires, :absolute,
                (select e.sale_generation from events e where e.event_id = p.event), %2$s, :pass
            from p, ledger
            where ledger.central + ledger.held + case when p.region = '' then 1 else 0 end <= ledger.ceiling
              and (p.region = '' or ledger.mine + 1 <= coalesce(ledger.slots, -1))
            on conflict do nothing
            returning %3$s""".formatted(LIVE, ACTIVE, COLUMNS);

    /** The modes in which an offer may be claimed: not while PAUSED (held) or SOLD_OUT (withdrawn). */
    static final Set<OperatingMode> CLAIMABLE =
            Collections.unmodifiableSet(EnumSet.of(OperatingMode.QUEUEING, OperatingMode.BYPASS));

    /**
     * The claim: only before the deadline, only while the event is in a claimable mode and in the offer's sale round. A
     * concurrent sold-out withdrawal and this update lock the same grant row, so one of them finds it changed. The
     * session is bound to the claiming browser's id (the offer's visitor, or another browser of the same account), and
     * the claim key's digest, when the claim carried one, is recorded with it (docs/design/architecture.md#identity). Only
     * this region's offers: another region's is claimed through its own gate, whose registry its gateways read.
     */
    private static final String ACTIVATE = """
            update grants set state = %s, session_id = :sid, session_visitor = :bound, activated_at = :now,
                session_expires_at = :sessionExpires, absolute_expires_at = :absolute, claim_key = :key
            where event_id = :e and visitor = :v and state = %s and offer_expires_at > :now and region = :region
              and exists (select 1 from events e where e.event_id = :e and e.mode in (%s)
                          and e.sale_generation = grants.sale_generation)
            returning %s""".formatted(ACTIVE, OFFERED, SqlLiterals.list(CLAIMABLE), COLUMNS);

    /** A pass's session is renewed only while its pass is neither revoked nor expired. */
    private static final String RENEW = """
            update grants set session_expires_at = least(:until, absolute_expires_at)
            where id = :id and state = %s and session_expires_at > :now
              and not exists (select 1 from passes p where p.pass_id = grants.pass_id
                              and (p.revoked_at is not null or p.expires_at <= :now))
            returning %s""".formatted(ACTIVE, COLUMNS);

    /** The session bound to a visitor: the newest ACTIVE grant whose session carries that identity. */
    private static final String FIND_SESSION_OF = """
            select %s from grants where event_id = :e and session_visitor = :v and state = %s
            order by activated_at desc limit 1
            """.formatted(COLUMNS, ACTIVE);

    /** Overdue offers expire, except while the event is PAUSED: a pause holds them (its length is added on resume). */
    private static final String EXPIRE_OFFERS = """
            update grants set state = %s, release_reason = %s, released_at = :now
            where event_id = :e and region = :region and state = %s and offer_expires_at <= :now
              and not exists (select 1 from events e where e.event_id = :e and e.mode = %s)
            returning %s""".formatted(
                    SqlLiterals.of(ReleaseReason.OFFER_EXPIRED.target()),
                    SqlLiterals.of(ReleaseReason.OFFER_EXPIRED),
                    OFFERED,
                    SqlLiterals.of(OperatingMode.PAUSED),
                    COLUMNS);

    private static final String EXPIRE_OF_REGION = """
            update grants set
                state = case when state = %1$s then %3$s else %4$s end,
                release_reason = case when state = %1$s then %5$s else %6$s end,
                released_at = :now
            where event_id = :e and region = :r
              and ((state = %1$s and offer_expires_at <= :now
                    and not exists (select 1 from events e where e.event_id = :e and e.mode = %7$s))
                   or (state = %2$s and session_expires_at <= :now))
            returning %8$s""".formatted(
                    OFFERED,
                    ACTIVE,
                    SqlLiterals.of(ReleaseReason.OFFER_EXPIRED.target()),
                    SqlLiterals.of(ReleaseReason.SESSION_EXPIRED.target()),
                    SqlLiterals.of(ReleaseReason.OFFER_EXPIRED),
                    SqlLiterals.of(ReleaseReason.SESSION_EXPIRED),
                    SqlLiterals.of(OperatingMode.PAUSED),
                    COLUMNS);

    /**
     * SOLD_OUT withdraws every outstanding offer of the event, in the mode change's transaction. The queue has not
     * heard of it yet: the outbox (queue_synced_state left as it was) tells it.
     */
    private static final String WITHDRAW_ALL = """
            update grants set state = %s, release_reason = %s, released_at = :now
            where event_id = :e and state = %s
            returning %s""".formatted(
            SqlLiterals.of(ReleaseReason.SOLD_OUT.target()), SqlLiterals.of(ReleaseReason.SOLD_OUT), OFFERED, COLUMNS);

    /**
     * Leaving PAUSED: every outstanding offer's deadline moves on by the pause. The queue has not heard the new
     * deadline, so the offer counts as unacknowledged (queue_synced_state null): the outbox sends it again, and the
     * queue moves a re-sent offer's deadline on (docs/reference/contracts.md, queue-service internal API).
     */
    private static final String EXTEND_OFFERS = """
            update grants set offer_expires_at = offer_expires_at + make_interval(secs => :seconds),
                queue_synced_state = null
            where event_id = :e and state = %s
            """.formatted(OFFERED);

    private static final String PURCHASED_TO_RELEASE =
            """
            select %s from grants g where g.event_id = :e and g.region = :region and g.state = %s
              and g.purchased_at is not null
              and exists (select 1 from events e where e.event_id = :e and e.after_purchase = %s)
            order by g.purchased_at limit :limit
            """.formatted(COLUMNS.replace("\n", " "), ACTIVE, SqlLiterals.of(AfterPurchase.RELEASE));

    /** Sessions of a sale generation before the event's current one (a new round has opened). */
    private static final String EARLIER_ROUND_SESSIONS = """
            select %s from grants g where g.event_id = :e and g.region = :region and g.state = %s
              and g.sale_generation < (select e.sale_generation from events e where e.event_id = :e)
            order by g.activated_at limit :limit
            """.formatted(COLUMNS.replace("\n", " "), ACTIVE);

    /** The queue has already answered for a withdrawn offer, so it counts as acknowledged. */
    private static final String WITHDRAW = """
            update grants set state = %1$s, release_reason = %2$s, released_at = :now, queue_synced_state = %1$s
            where id = :id and state = %3$s
            """.formatted(
                    SqlLiterals.of(ReleaseReason.WITHDRAWN.target()), SqlLiterals.of(ReleaseReason.WITHDRAWN), OFFERED);

    private static final String OVERDUE_SESSIONS = """
            select %s from grants where event_id = :e and region = :region and state = %s
              and session_expires_at <= :now
            order by session_expires_at limit :limit
            """.formatted(COLUMNS, ACTIVE);

    private static final String FIND_LIVE = """
            select %s from grants where event_id = :e and visitor = :v and state in (%s)
            """.formatted(COLUMNS, LIVE);

    private static final String FIND_OFFERED = """
            select %s from grants where event_id = :e and region = :region and state = %s
            """.formatted(COLUMNS, OFFERED);

    private static final String COUNT_LIVE = """
            select count(*) filter (where state = %s) as offered, count(*) filter (where state = %s) as active
            from grants where event_id = :e and region = :region and state in (%s)
            """.formatted(OFFERED, ACTIVE, LIVE);

    private final JdbcClient jdbc;

    private final JdbcTemplate template;

    private final TransactionTemplate transactions;

    private final Region region;

    Grants(JdbcClient jdbc, JdbcTemplate template, TransactionTemplate transactions, Region region) {
        this.jdbc = jdbc;
        this.template = template;
        this.transactions = transactions;
        this.region = region;
    }

    /**
     * The fenced allocation of {@code batch} by the gate of {@code region}, all or nothing, in one transaction that
     * first locks the event row. Returns the rows inserted: none when the region's lease or generation is not this
     * owner's any more, the event is not open and queueing, or the batch does not fit (the ceiling, or the region's
     * budget). The ledger tests play several regions in one process.
     */
    public List<Grant> allocate(
            Region region,
            EventId eventId,
            String owner,
            FencingGeneration generation,
            List<Candidate> batch,
            Instant offeredAt,
            Instant offerExpiresAt) {
        return this.transactions.execute(status -> {
            lockEvent(this.jdbc, eventId);
            return insertOffers(region, eventId, owner, generation, batch, offeredAt, offerExpiresAt);
        });
    }

    /**
     * Locks the event row until the transaction ends: every allocation and every budget change of one event takes this
     * lock first, so each statement after it sees the others' committed rows (docs/operating/regions.md).
     */
    public static void lockEvent(JdbcClient jdbc, EventId eventId) {
        jdbc.sql("select event_id from events where event_id = :e for update")
                .param("e", eventId.value())
                .query()
                .rowSet();
    }

    /** Must run inside a transaction that has called {@link #lockEvent}. Returns the rows actually inserted. */
    private List<Grant> insertOffers(
            Region region,
            EventId eventId,
            String owner,
            FencingGeneration generation,
            List<Candidate> batch,
            Instant offeredAt,
            Instant offerExpiresAt) {
        if (batch.isEmpty()) {
            return List.of();
        }
        return this.template.query(
                con -> {
                    PreparedStatement ps = con.prepareStatement(INSERT_OFFERS);
                    int n = batch.size();
                    UUID[] ids = new UUID[n];
                    String[] visitors = new String[n];
                    String[] entries = new String[n];
                    Long[] keys = new Long[n];
                    for (int i = 0; i < n; i++) {
                        ids[i] = GrantId.random().value();
                        visitors[i] = batch.get(i).visitor().value();
                        entries[i] = batch.get(i).entryId().value();
                        keys[i] = batch.get(i).orderKey();
                    }
                    Array idArray = con.createArrayOf("uuid", ids);
                    int p = 1;
                    ps.setString(p++, eventId.value());
                    ps.setString(p++, region.name());
                    ps.setInt(p++, n);
                    ps.setLong(p++, generation.value());
                    ps.setString(p++, owner);
                    ps.setObject(p++, ts(offeredAt));
                    ps.setObject(p++, ts(offerExpiresAt));
                    ps.setArray(p++, idArray);
                    ps.setArray(p++, con.createArrayOf("text", visitors));
                    ps.setArray(p++, con.createArrayOf("text", entries));
                    ps.setArray(p, con.createArrayOf("bigint", keys));
                    return ps;
                },
                Grants::map);
    }

    /**
     * OFFERED -> ACTIVE for the offer made to {@code visitor}, only before the offer deadline; the session is bound to
     * {@code bound} and {@code keyDigest} (or null) recorded in the same statement.
     */
    Optional<Grant> activate(
            EventId eventId,
            VisitorId visitor,
            VisitorId bound,
            SessionId sessionId,
            Instant now,
            Instant sessionExpiresAt,
            Instant absoluteExpiresAt,
            String keyDigest) {
        return this.jdbc
                .sql(ACTIVATE)
                .param("sid", sessionId.value())
                .param("key", keyDigest)
                .param("bound", bound.value())
                .param("now", ts(now))
                .param("sessionExpires", ts(sessionExpiresAt))
                .param("absolute", ts(absoluteExpiresAt))
                .param("e", eventId.value())
                .param("v", visitor.value())
                .param("region", this.region.name())
                .query(Grants::map)
                .optional();
    }

    /**
     * True when {@code id} was activated by a claim that carried the key with this digest and the claim's window is
     * still open at {@code now}: the offer's deadline, or {@code grace} after the activation when that is later (a claim
     * made in the offer's last second can still be retried). A repeat of that claim may be given the session again.
     */
    boolean claimedWith(GrantId id, String keyDigest, Instant now, Duration grace) {
        return this.jdbc
                        .sql("""
                select count(*) from grants where id = :id and claim_key = :key
                  and greatest(offer_expires_at, activated_at + make_interval(secs => :grace)) > :now
                """)
                        .param("id", id.value())
                        .param("key", keyDigest)
                        .param("grace", grace.toNanos() / 1e9)
                        .param("now", ts(now))
                        .query(Long.class)
                        .single()
                == 1;
    }

    /** Extends an ACTIVE, unexpired session to {@code now + ttl}, never past its absolute limit. */
    Optional<Grant> renew(GrantId id, Instant now, Duration ttl) {
        return this.jdbc
                .sql(RENEW)
                .param("until", ts(now.plus(ttl)))
                .param("now", ts(now))
                .param("id", id.value())
                .query(Grants::map)
                .optional();
    }

    /** The ACTIVE session bound to {@code visitor} (its identity since the claim), if any. */
    Optional<Grant> findSessionOf(EventId eventId, VisitorId visitor) {
        return this.jdbc
                .sql(FIND_SESSION_OF)
                .param("e", eventId.value())
                .param("v", visitor.value())
                .query(Grants::map)
                .optional();
    }

    /** The one transition that returns capacity: true only for the caller whose update changed the row. */
    boolean release(GrantId id, GrantState expected, ReleaseReason reason, Instant now) {
        if (!expected.canMoveTo(reason.target())) {
            throw new IllegalArgumentException(expected + " cannot end as " + reason);
        }
        return this.jdbc
                        .sql("""
                update grants set state = :to, release_reason = :reason, released_at = :now
                where id = :id and state = :expected
                """)
                        .param("to", reason.target().name())
                        .param("reason", reason.name())
                        .param("now", ts(now))
                        .param("id", id.value())
                        .param("expected", expected.name())
                        .update()
                == 1;
    }

    /** Expires every overdue offer of an event in one statement; returns the grants it changed. */
    List<Grant> expireOffers(EventId eventId, Instant now) {
        return this.jdbc
                .sql(EXPIRE_OFFERS)
                .param("region", this.region.name())
                .param("now", ts(now))
                .param("e", eventId.value())
                .query(Grants::map)
                .list();
    }

    /**
     * Ends a frozen region's overdue offers and sessions in the ledger only (docs/operating/regions.md): its gate has stopped, so
     * its queue hears of them through the outbox (queue_synced_state left as it was) when the gate is back. Offers are
     * held while the event is paused, as for every gate.
     */
    List<Grant> expireOfFrozenRegion(EventId eventId, Region region, Instant now) {
        return this.jdbc
                .sql(EXPIRE_OF_REGION)
                .param("now", ts(now))
                .param("e", eventId.value())
                .param("r", region.name())
                .query(Grants::map)
                .list();
    }

    /** Withdraws every outstanding offer of a sold-out event; returns the grants it changed. */
    List<Grant> withdrawAll(EventId eventId, Instant now) {
        return this.jdbc
                .sql(WITHDRAW_ALL)
                .param("now", ts(now))
                .param("e", eventId.value())
                .query(Grants::map)
                .list();
    }

    /** Moves every outstanding offer's deadline on by {@code pause}; returns how many. */
    int extendOffers(EventId eventId, Duration pause) {
        return this.jdbc
                .sql(EXTEND_OFFERS)
                .param("seconds", pause.toNanos() / 1e9)
                .param("e", eventId.value())
                .update();
    }

    /**
     * This region's ACTIVE sessions with a recorded purchase, in an event whose sessions end at purchase: another
     * region's coordinator recorded it and left the release to this region's gate.
     */
    List<Grant> purchasedToRelease(EventId eventId, int limit) {
        return this.jdbc
                .sql(PURCHASED_TO_RELEASE)
                .param("region", this.region.name())
                .param("e", eventId.value())
                .param("limit", limit)
                .query(Grants::map)
                .list();
    }

    /** ACTIVE sessions of an earlier sale generation than the event's current one. */
    List<Grant> earlierRoundSessions(EventId eventId, int limit) {
        return this.jdbc
                .sql(EARLIER_ROUND_SESSIONS)
                .param("region", this.region.name())
                .param("e", eventId.value())
                .param("limit", limit)
                .query(Grants::map)
                .list();
    }

    /** Withdraws an offer the queue could not apply (the entry left the queue meanwhile). */
    boolean withdraw(GrantId id, Instant now) {
        return this.jdbc
                        .sql(WITHDRAW)
                        .param("now", ts(now))
                        .param("id", id.value())
                        .update()
                == 1;
    }

    /** Records a purchase once (idempotent completion). */
    boolean recordPurchase(GrantId id, String orderId, Instant now) {
        return this.jdbc
                        .sql("""
                update grants set purchased_at = :now, order_id = :order where id = :id and purchased_at is null
                """)
                        .param("now", ts(now))
                        .param("order", orderId)
                        .param("id", id.value())
                        .update()
                == 1;
    }

    List<Grant> overdueSessions(EventId eventId, Instant now, int limit) {
        return this.jdbc
                .sql(OVERDUE_SESSIONS)
                .param("region", this.region.name())
                .param("e", eventId.value())
                .param("now", ts(now))
                .param("limit", limit)
                .query(Grants::map)
                .list();
    }

    public Optional<Grant> findLive(EventId eventId, VisitorId visitor) {
        return this.jdbc
                .sql(FIND_LIVE)
                .param("e", eventId.value())
                .param("v", visitor.value())
                .query(Grants::map)
                .optional();
    }

    Optional<Grant> findLatest(EventId eventId, VisitorId visitor) {
        return this.jdbc
                .sql("select " + COLUMNS + """
                 from grants where event_id = :e and visitor = :v order by offered_at desc, id limit 1
                """)
                .param("e", eventId.value())
                .param("v", visitor.value())
                .query(Grants::map)
                .optional();
    }

    /**
     * Inserts a pass's ACTIVE session for {@code visitor} if it fits the ceiling ({@link #INSERT_PASS_SESSION});
     * empty when it does not, or when the visitor already holds a live grant of the event. Must run inside a
     * transaction that has called {@link #lockEvent}.
     */
    public Optional<Grant> insertPassSession(
            EventId eventId,
            String passId,
            VisitorId visitor,
            SessionId sessionId,
            Instant now,
            Instant sessionExpiresAt,
            Instant absoluteExpiresAt) {
        return this.jdbc
                .sql(INSERT_PASS_SESSION)
                .param("e", eventId.value())
                .param("region", this.region.name())
                .param("id", GrantId.random().value())
                .param("v", visitor.value())
                .param("entry", passEntry(passId, sessionId))
                .param("now", ts(now))
                .param("sid", sessionId.value())
                .param("sessionExpires", ts(sessionExpiresAt))
                .param("absolute", ts(absoluteExpiresAt))
                .param("pass", passId)
                .query(Grants::map)
                .optional();
    }

    /** The entry id a pass's session is stored under: no queue entry has it (queue entry ids are base 36, {@link EntryId}). */
    static String passEntry(String passId, SessionId sessionId) {
        return PASS_ENTRY_PREFIX + passId + ":" + sessionId.value();
    }

    /** Whether {@code grant} is a pass's session, which the queue never hears of. */
    public static boolean isPassSession(Grant grant) {
        return grant.entryId() == null;
    }

    /** The live sessions opened with a pass. */
    public List<Grant> liveOfPass(EventId eventId, String passId) {
        return this.jdbc
                .sql("select " + COLUMNS + " from grants where event_id = :e and pass_id = :pass and state in (" + LIVE
                        + ")")
                .param("e", eventId.value())
                .param("pass", passId)
                .query(Grants::map)
                .list();
    }

    public Optional<Grant> find(GrantId id) {
        return this.jdbc
                .sql("select " + COLUMNS + " from grants where id = :id")
                .param("id", id.value())
                .query(Grants::map)
                .optional();
    }

    Optional<Grant> findBySession(EventId eventId, SessionId sessionId) {
        return this.jdbc
                .sql("select " + COLUMNS + " from grants where event_id = :e and session_id = :sid")
                .param("e", eventId.value())
                .param("sid", sessionId.value())
                .query(Grants::map)
                .optional();
    }

    /** Grants whose latest state the queue has not acknowledged (the outbox). */
    List<Grant> unsynced(EventId eventId, int limit) {
        return this.jdbc
                .sql("select " + COLUMNS + """
                 from grants where event_id = :e and region = :region and queue_synced_state is distinct from state
                order by offered_at limit :limit
                """)
                .param("region", this.region.name())
                .param("e", eventId.value())
                .param("limit", limit)
                .query(Grants::map)
                .list();
    }

    List<Grant> offered(EventId eventId) {
        return this.jdbc
                .sql(FIND_OFFERED)
                .param("region", this.region.name())
                .param("e", eventId.value())
                .query(Grants::map)
                .list();
    }

    void markSynced(GrantId id, GrantState acknowledged) {
        this.jdbc
                .sql("update grants set queue_synced_state = :s where id = :id")
                .param("s", acknowledged.name())
                .param("id", id.value())
                .update();
    }

    /** Live grants (OFFERED or ACTIVE) of the event in every region. */
    public long liveInEveryRegion(EventId eventId) {
        return this.jdbc
                .sql("select count(*) from grants where event_id = :e and state in ("
                        + dev.waitroom.coordinator.SqlLiterals.list(GrantState.LIVE) + ")")
                .param("e", eventId.value())
                .query(Long.class)
                .single();
    }

    public LiveCounts count(EventId eventId) {
        return this.jdbc
                .sql(COUNT_LIVE)
                .param("region", this.region.name())
                .param("e", eventId.value())
                .query((rs, n) -> new LiveCounts(rs.getLong("offered"), rs.getLong("active")))
                .single();
    }

    /**
     * {@link #count} without the sessions passes opened, which the queue never hears of: what the queue's own counters
     * are compared with (drift).
     */
    public LiveCounts countQueued(EventId eventId) {
        return this.jdbc
                .sql(COUNT_LIVE + " and pass_id is null")
                .param("region", this.region.name())
                .param("e", eventId.value())
                .query((rs, n) -> new LiveCounts(rs.getLong("offered"), rs.getLong("active")))
                .single();
    }

    /** Count of grants per final release reason, for the live view. */
    /**
     * The event's checkouts: grants whose purchase booking reported (once each, whatever the after-purchase policy).
     * Sessions ended by a new round, a leave or an expiry are not among them.
     */
    public long checkouts(EventId eventId) {
        return this.jdbc
                .sql("select count(*) from grants where event_id = :e and purchased_at is not null")
                .param("e", eventId.value())
                .query(Long.class)
                .single();
    }

    public java.util.Map<String, Long> releasedByReason(EventId eventId) {
        java.util.Map<String, Long> result = new java.util.TreeMap<>();
        this.jdbc.sql("""
                select release_reason, count(*) as n from grants
                where event_id = :e and release_reason is not null group by release_reason
                """).param("e", eventId.value()).query(rs -> {
            result.put(rs.getString("release_reason"), rs.getLong("n"));
        });
        return result;
    }

    private static OffsetDateTime ts(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static Grant map(ResultSet rs, int row) throws SQLException {
        String reason = rs.getString("release_reason");
        String synced = rs.getString("queue_synced_state");
        UUID session = rs.getObject("session_id", UUID.class);
        String sessionVisitor = rs.getString("session_visitor");
        String entry = rs.getString("entry_id");
        return new Grant(
                new GrantId(rs.getObject("id", UUID.class)),
                EventId.of(rs.getString("event_id")),
                new VisitorId(rs.getString("visitor")),
                entry.startsWith(PASS_ENTRY_PREFIX) ? null : new EntryId(entry),
                rs.getLong("order_key"),
                new FencingGeneration(rs.getLong("generation")),
                GrantState.valueOf(rs.getString("state")),
                instant(rs, "offered_at"),
                instant(rs, "offer_expires_at"),
                session == null ? null : new SessionId(session),
                sessionVisitor == null ? null : new VisitorId(sessionVisitor),
                instant(rs, "activated_at"),
                instant(rs, "session_expires_at"),
                instant(rs, "absolute_expires_at"),
                instant(rs, "purchased_at"),
                instant(rs, "released_at"),
                reason == null ? null : ReleaseReason.valueOf(reason),
                synced == null ? null : GrantState.valueOf(synced),
                rs.getLong("sale_generation"),
                new Region(rs.getString("region")),
                rs.getString("pass_id"));
    }
}
