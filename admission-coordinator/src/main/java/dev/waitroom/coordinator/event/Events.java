package dev.waitroom.coordinator.event;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventLifecycle;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.coordinator.SqlLiterals;
import dev.waitroom.coordinator.keys.SeedSeal;
import dev.waitroom.coordinator.routes.Routes;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Event rows. Every state change names the state it expects in its WHERE clause. The draw seed is stored sealed
 * ({@link SeedSeal}) and opened as a row is read.
 */
@Repository
public class Events implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(Events.class);

    private static final String COLUMNS = """
            event_id, name, opens_at, max_active_sessions, max_admissions_per_second, batch_max, offer_ttl_seconds,
            session_ttl_seconds, session_max_seconds, presale_ordering, identity_scope, expired_offer_policy,
            after_purchase, phase, mode, sale_generation, seed, sealed_seed, commitment, seed_revealed_at,
            seed_published_at, announcement,
            max_joins_per_second, proof_of_work_difficulty, protect_origin, protect_host, protect_paths,
            protect_allow, lifecycle
            """;

    /** A new event: scheduled, queueing; a draft, or published now. */
    private static final String INSERT = """
            insert into events (event_id, name, opens_at, max_active_sessions, max_admissions_per_second, batch_max,
                offer_ttl_seconds, session_ttl_seconds, session_max_seconds, presale_ordering, identity_scope,
                expired_offer_policy, after_purchase, max_joins_per_second, proof_of_work_difficulty, phase, mode,
                sealed_seed, commitment, lifecycle, published_at)
            values (:id, :name, :opensAt, :ceiling, :rate, :batch, :offerTtl, :sessionTtl, :sessionMax, :presale,
                :scope, :policy, :after, :maxJoins, :pow, %s, %s, :sealedSeed, :commitment, :lifecycle,
                case when :lifecycle = %s then null else now() end)
            on conflict (event_id) do nothing
            """.formatted(
                    SqlLiterals.of(EventPhase.SCHEDULED),
                    SqlLiterals.of(OperatingMode.QUEUEING),
                    SqlLiterals.of(EventLifecycle.DRAFT));

    /** Live events that have not ended: drafts and archived events are never led, pushed or opened. */
    private static final String UNFINISHED =
            "select %s from events where phase <> %s and lifecycle in (%s) order by event_id"
                    .formatted(COLUMNS, SqlLiterals.of(EventPhase.ENDED), SqlLiterals.list(EventLifecycle.LIVE));

    private static final String PUBLISH =
            """
            update events set lifecycle = %s, published_at = now(), updated_at = now()
            where event_id = :id and lifecycle = %s
            """.formatted(SqlLiterals.of(EventLifecycle.PUBLISHED), SqlLiterals.of(EventLifecycle.DRAFT));

    /** Archives only an event that has ended or never opened, from the lifecycle the caller saw. */
    private static final String ARCHIVE = """
            update events set lifecycle = %s, archived_at = now(), updated_at = now()
            where event_id = :id and lifecycle = :from and phase in (%s, %s)
            """.formatted(
                    SqlLiterals.of(EventLifecycle.ARCHIVED),
                    SqlLiterals.of(EventPhase.ENDED),
                    SqlLiterals.of(EventPhase.SCHEDULED));

    /** The tables whose rows name an event by a one-column foreign key: a deletion removes their rows first. */
    private static final String REFERENCING = """
            select c.conrelid::regclass::text as tbl, a.attname as col
            from pg_constraint c
            join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
            where c.contype = 'f' and c.confrelid = 'events'::regclass and cardinality(c.conkey) = 1
            order by 1
            """;

    private static final String OPEN =
            """
            update events set phase = %s, updated_at = now() where event_id = :id and phase = %s
            """.formatted(SqlLiterals.of(EventPhase.OPEN), SqlLiterals.of(EventPhase.SCHEDULED));

    private static final String END = """
            update events set phase = %s, updated_at = now() where event_id = :id and phase = :from
            """.formatted(SqlLiterals.of(EventPhase.ENDED));

    private static final String REVEAL_SEED =
            """
            update events set seed_revealed_at = now(), updated_at = now()
            where event_id = :id and phase = %s and %s
            """.formatted(SqlLiterals.of(EventPhase.OPEN), drawIs(DrawState.PENDING, "events"));

    /**
     * Publishes the seed once every gate that has led the event (a lease row, kept after it lapses) has recorded its
     * queue's draw: with regions, no queue can still be taking pre-sale entries (docs/operating/regions.md#the-draw).
     */
    private static final String PUBLISH_SEED = """
            update events e set seed_published_at = now(), updated_at = now()
            where e.event_id = :id and e.seed_published_at is null and %s
              and exists (select 1 from queue_draws d where d.event_id = e.event_id)
              and not exists (
                  select 1 from leases l
                  where l.event_id = e.event_id
                    and not exists (select 1 from queue_draws d where d.event_id = l.event_id and d.region = l.region))
            """.formatted(drawIs(DrawState.DRAWN, "e"));

    private static final String NEW_ROUND = """
            update events set mode = %s, sale_generation = sale_generation + 1, announcement = :announcement,
                paused_at = null, updated_at = now()
            where event_id = :id and mode = %s and phase <> %s and sale_generation = :generation
            """.formatted(
                    SqlLiterals.of(OperatingMode.QUEUEING),
                    SqlLiterals.of(OperatingMode.SOLD_OUT),
                    SqlLiterals.of(EventPhase.ENDED));

    private final JdbcClient jdbc;

    /**
     * This gate's region: the measured pace is of its own offers, which its queue's positions drain; its queue's draw
     * is recorded under its name.
     */
    private final Region region;

    private final SeedSeal seeds;

    Events(JdbcClient jdbc, Region region, SeedSeal seeds) {
        this.jdbc = jdbc;
        this.region = region;
        this.seeds = seeds;
    }

    /**
     * At start: seals every seed still stored in plain text (rows from before seeds were sealed, V11_1) and seals again
     * every seed sealed with the previous key-encryption key; each row is a compare-and-set on the form it was read in.
     * Fails the start (naming the property) when a sealed seed opens with neither configured key, as the signing keys
     * do.
     */
    @Override
    public void afterPropertiesSet() {
        int sealed = 0;
        for (java.util.Map<String, Object> row : this.jdbc
                .sql("select event_id, seed, sealed_seed from events")
                .query()
                .listOfRows()) {
            String id = (String) row.get("event_id");
            String plain = (String) row.get("seed");
            String stored = (String) row.get("sealed_seed");
            if (plain != null) {
                sealed += this.jdbc
                        .sql("""
                                update events set sealed_seed = :sealed, seed = null
                                where event_id = :id and seed = :seed and sealed_seed is null
                                """)
                        .param("sealed", this.seeds.seal(EventId.of(id), plain))
                        .param("id", id)
                        .param("seed", plain)
                        .update();
            } else {
                SeedSeal.Opened opened = this.seeds.open(EventId.of(id), stored);
                if (!opened.sealedWithCurrentKey()) {
                    sealed += this.jdbc
                            .sql("update events set sealed_seed = :sealed where event_id = :id and sealed_seed = :was")
                            .param("sealed", this.seeds.seal(EventId.of(id), opened.seedHex()))
                            .param("id", id)
                            .param("was", stored)
                            .update();
                }
            }
        }
        if (sealed > 0) {
            log.info("Draw seeds of {} events sealed with the current key-encryption key", sealed);
        }
    }

    /** Inserts a new event, its seed sealed, as a draft or published now; false when the id is taken. */
    boolean insert(EventId id, EventConfig c, String seed, String commitment, EventLifecycle lifecycle) {
        int rows = this.jdbc
                .sql(INSERT)
                .param("id", id.value())
                .params(configParams(c))
                .param("sealedSeed", this.seeds.seal(id, seed))
                .param("commitment", commitment)
                .param("lifecycle", lifecycle.name())
                .update();
        return rows == 1;
    }

    /** DRAFT -> PUBLISHED, once; false when the event is not a draft (any more). */
    boolean publish(EventId id) {
        return this.jdbc.sql(PUBLISH).param("id", id.value()).update() == 1;
    }

    /** -> ARCHIVED from {@code from}, only when the sale has ended or never opened; false otherwise. */
    boolean archive(EventId id, EventLifecycle from) {
        return this.jdbc
                        .sql(ARCHIVE)
                        .param("id", id.value())
                        .param("from", from.name())
                        .update()
                == 1;
    }

    /** Whether any offer was ever made for the event (a grant row, whatever its state). */
    boolean everOffered(EventId id) {
        return this.jdbc
                .sql("select exists (select 1 from grants where event_id = :id)")
                .param("id", id.value())
                .query(Boolean.class)
                .single();
    }

    /**
     * Deletes the event's row and every row that names it by a foreign key (found in the catalogue, so a table added
     * later is covered), and records the deletion in {@code deleted_events}; in the caller's transaction, holding the
     * event's row lock. False when the row is gone already.
     */
    boolean delete(Event event, String actor, String reason) {
        for (java.util.Map<String, Object> ref :
                this.jdbc.sql(REFERENCING).query().listOfRows()) {
            this.jdbc
                    .sql("delete from " + ref.get("tbl") + " where " + ref.get("col") + " = :id")
                    .param("id", event.id().value())
                    .update();
        }
        boolean deleted = this.jdbc
                        .sql("delete from events where event_id = :id")
                        .param("id", event.id().value())
                        .update()
                == 1;
        if (deleted) {
            this.jdbc
                    .sql("""
                            insert into deleted_events (event_id, name, lifecycle, actor, reason)
                            values (:id, :name, :lifecycle, :actor, :reason)
                            """)
                    .param("id", event.id().value())
                    .param("name", event.config().name())
                    .param("lifecycle", event.lifecycle().name())
                    .param("actor", actor)
                    .param("reason", reason)
                    .update();
        }
        return deleted;
    }

    /** The deletions recorded for an event id, oldest first (kind CONFIG, from the lifecycle it had, to DELETED). */
    public List<ModeChange> deletions(EventId id) {
        return this.jdbc
                .sql("select lifecycle, actor, reason, at from deleted_events where event_id = :id order by id")
                .param("id", id.value())
                .query((rs, n) -> new ModeChange(
                        ChangeKind.CONFIG,
                        rs.getString("lifecycle"),
                        "DELETED",
                        rs.getString("actor"),
                        rs.getString("reason"),
                        rs.getObject("at", OffsetDateTime.class).toInstant()))
                .list();
    }

    boolean updateConfig(EventId id, EventConfig c) {
        return this.jdbc
                        .sql("""
                update events set name = :name, opens_at = :opensAt, max_active_sessions = :ceiling,
                    max_admissions_per_second = :rate, batch_max = :batch, offer_ttl_seconds = :offerTtl,
                    session_ttl_seconds = :sessionTtl, session_max_seconds = :sessionMax, presale_ordering = :presale,
                    identity_scope = :scope, expired_offer_policy = :policy, after_purchase = :after,
                    max_joins_per_second = :maxJoins, proof_of_work_difficulty = :pow, updated_at = now()
                where event_id = :id
                """)
                        .param("id", id.value())
                        .params(configParams(c))
                        .update()
                == 1;
    }

    private static java.util.Map<String, Object> configParams(EventConfig c) {
        java.util.Map<String, Object> p = new java.util.HashMap<>();
        p.put("name", c.name());
        p.put("opensAt", c.opensAt() == null ? null : OffsetDateTime.ofInstant(c.opensAt(), ZoneOffset.UTC));
        p.put("ceiling", c.maxActiveSessions());
        p.put("rate", c.maxAdmissionsPerSecond());
        p.put("batch", c.batchMax());
        p.put("offerTtl", (int) c.offerTtl().toSeconds());
        p.put("sessionTtl", (int) c.sessionTtl().toSeconds());
        p.put("sessionMax", (int) c.sessionMax().toSeconds());
        p.put("presale", c.presaleOrdering().name());
        p.put("scope", c.identityScope().name());
        p.put("policy", c.expiredOfferPolicy().name());
        p.put("after", c.afterPurchase().name());
        p.put("maxJoins", c.maxJoinsPerSecond());
        p.put("pow", c.proofOfWorkDifficulty());
        return p;
    }

    public Optional<Event> find(EventId id) {
        return this.jdbc
                .sql("select " + COLUMNS + " from events where event_id = :id")
                .param("id", id.value())
                .query(this::map)
                .optional();
    }

    /** Locks the event row for the rest of the transaction: serialises allocations and changes per event. */
    Optional<Event> lock(EventId id) {
        return this.jdbc
                .sql("select " + COLUMNS + " from events where event_id = :id for update")
                .param("id", id.value())
                .query(this::map)
                .optional();
    }

    /** Events a coordinator should lead: every event that has not ended. */
    public List<Event> unfinished() {
        return this.jdbc.sql(UNFINISHED).query(this::map).list();
    }

    boolean changeMode(EventId id, OperatingMode from, OperatingMode to) {
        return this.jdbc
                        .sql("update events set mode = :to, updated_at = now() where event_id = :id and mode = :from")
                        .param("id", id.value())
                        .param("from", from.name())
                        .param("to", to.name())
                        .update()
                == 1;
    }

    /** Records when the event entered PAUSED, or clears it ({@code at} null); in the mode change's transaction. */
    void markPaused(EventId id, java.time.Instant at) {
        this.jdbc
                .sql("update events set paused_at = :at where event_id = :id")
                .param("id", id.value())
                .param("at", at == null ? null : OffsetDateTime.ofInstant(at, ZoneOffset.UTC))
                .update();
    }

    /** When the event entered PAUSED, if it is paused. */
    Optional<java.time.Instant> pausedAt(EventId id) {
        return this.jdbc
                .sql("select paused_at from events where event_id = :id and paused_at is not null")
                .param("id", id.value())
                .query((rs, n) ->
                        rs.getObject("paused_at", OffsetDateTime.class).toInstant())
                .optional();
    }

    /**
     * A new round of the sale (docs/design/sale-rules/sold-out-pause-rounds.md): SOLD_OUT -> QUEUEING with the next sale
     * generation and the round's announcement, only from SOLD_OUT and before the sale has ended.
     */
    boolean newRound(EventId id, long fromGeneration, String announcement) {
        return this.jdbc
                        .sql(NEW_ROUND)
                        .param("id", id.value())
                        .param("generation", fromGeneration)
                        .param("announcement", announcement)
                        .update()
                == 1;
    }

    /** Opens the sale, once: only from SCHEDULED. The seed stays secret until the draw has run. */
    boolean open(EventId id) {
        return this.jdbc.sql(OPEN).param("id", id.value()).update() == 1;
    }

    /** Ends the sale from the phase the caller saw; false when the phase changed meanwhile. */
    boolean end(EventId id, EventPhase from) {
        return this.jdbc
                        .sql(END)
                        .param("id", id.value())
                        .param("from", from.name())
                        .update()
                == 1;
    }

    /** Records that the draw has run, once: PENDING -> DRAWN. The seed is published apart ({@link #publishSeed}). */
    boolean markDrawn(EventId id) {
        return this.jdbc.sql(REVEAL_SEED).param("id", id.value()).update() == 1;
    }

    /** Records that this gate's queue has drawn its pre-sale group (idempotent). */
    void recordQueueDrawn(EventId id) {
        this.jdbc
                .sql("insert into queue_draws (event_id, region) values (:id, :region) on conflict do nothing")
                .param("id", id.value())
                .param("region", this.region.name())
                .update();
    }

    /**
     * Publishes the seed, once, when the draw has run and every gate that has led the event recorded its queue's draw
     * ({@link #PUBLISH_SEED}); false when it is already public or some queue has not drawn yet.
     */
    boolean publishSeed(EventId id) {
        return this.jdbc.sql(PUBLISH_SEED).param("id", id.value()).update() == 1;
    }

    /** The regions (their gates' names; empty is the central gate) that led the event but have not drawn its queue. */
    List<String> regionsNotDrawn(EventId id) {
        return this.jdbc.sql("""
                        select l.region from leases l
                        where l.event_id = :id
                          and not exists (select 1 from queue_draws d where d.event_id = l.event_id and d.region = l.region)
                        order by l.region
                        """).param("id", id.value()).query(String.class).list();
    }

    boolean changeAnnouncement(EventId id, String text) {
        return this.jdbc
                        .sql("update events set announcement = :text, updated_at = now() where event_id = :id")
                        .param("id", id.value())
                        .param("text", text)
                        .update()
                == 1;
    }

    void audit(EventId id, ChangeKind kind, String from, String to, String actor, String reason) {
        this.jdbc
                .sql("""
                insert into mode_changes (event_id, kind, from_value, to_value, actor, reason)
                values (:id, :kind, :from, :to, :actor, :reason)
                """)
                .param("id", id.value())
                .param("kind", kind.name())
                .param("from", from)
                .param("to", to)
                .param("actor", actor)
                .param("reason", reason)
                .update();
    }

    /**
     * The offers of the measured pace (docs/design/estimates.md): counts per {@link Pace#BUCKET_SECONDS} s bucket ending now,
     * oldest first, since admissions last started (the opening, or a return to QUEUEING), at most
     * {@link Pace#WINDOW_BUCKETS}; and how long ago they last resumed after the opening (null if they never did).
     * Database time throughout, like the offers it counts.
     */
    public OfferBuckets offerBuckets(EventId id) {
        java.util.Map<String, Object> started =
                this.jdbc.sql("""
                select extract(epoch from clock_timestamp() - max(at)) as since_start,
                       extract(epoch from clock_timestamp() - max(at) filter (where kind = 'MODE')) as since_resume,
                       extract(epoch from clock_timestamp() - max(at) filter (where kind = 'PHASE')) as since_open
                from mode_changes
                where event_id = ? and ((kind = 'MODE' and to_value = 'QUEUEING') or (kind = 'PHASE' and to_value = 'OPEN'))
                """).param(id.value()).query().singleRow();
        double sinceStart = seconds(started.get("since_start"), Pace.WINDOW_BUCKETS * Pace.BUCKET_SECONDS);
        Double sinceResume = started.get("since_resume") == null ? null : seconds(started.get("since_resume"), 0);
        Double sinceOpen = started.get("since_open") == null ? null : seconds(started.get("since_open"), 0);
        boolean resumedAfterOpening = sinceResume != null && (sinceOpen == null || sinceResume < sinceOpen);
        int n = (int) Math.min(Pace.WINDOW_BUCKETS, Math.floor(sinceStart / Pace.BUCKET_SECONDS));
        long[] counts = new long[Math.max(0, n)];
        if (n > 0) {
            this.jdbc
                    .sql("""
                    select floor(extract(epoch from clock_timestamp() - offered_at) / ?)::int as age, count(*) as offers
                    from grants where event_id = ? and region = ?
                      and offered_at > clock_timestamp() - make_interval(secs => ?)
                    group by 1""")
                    .params(Pace.BUCKET_SECONDS, id.value(), this.region.name(), n * Pace.BUCKET_SECONDS)
                    .query((rs, row) -> {
                        int age = rs.getInt("age");
                        if (age >= 0 && age < n) {
                            counts[n - 1 - age] = rs.getLong("offers");
                        }
                        return age;
                    })
                    .list();
        }
        return new OfferBuckets(counts, resumedAfterOpening ? sinceResume : null);
    }

    /** @param resumedSecondsAgo how long ago admissions resumed after the opening, null if they never did */
    public record OfferBuckets(long[] counts, Double resumedSecondsAgo) {}

    private static double seconds(Object value, double fallback) {
        return value instanceof Number number ? number.doubleValue() : fallback;
    }

    public List<ModeChange> changes(EventId id) {
        return this.jdbc
                .sql("""
                select kind, from_value, to_value, actor, reason, at from mode_changes where event_id = :id order by id
                """)
                .param("id", id.value())
                .query((rs, n) -> new ModeChange(
                        ChangeKind.valueOf(rs.getString("kind")),
                        rs.getString("from_value"),
                        rs.getString("to_value"),
                        rs.getString("actor"),
                        rs.getString("reason"),
                        rs.getObject("at", OffsetDateTime.class).toInstant()))
                .list();
    }

    private Event map(ResultSet rs, int row) throws SQLException {
        OffsetDateTime opensAt = rs.getObject("opens_at", OffsetDateTime.class);
        EventConfig config = new EventConfig(
                rs.getString("name"),
                opensAt == null ? null : opensAt.toInstant(),
                rs.getInt("max_active_sessions"),
                rs.getDouble("max_admissions_per_second"),
                rs.getInt("batch_max"),
                Duration.ofSeconds(rs.getInt("offer_ttl_seconds")),
                Duration.ofSeconds(rs.getInt("session_ttl_seconds")),
                Duration.ofSeconds(rs.getInt("session_max_seconds")),
                PresaleOrdering.valueOf(rs.getString("presale_ordering")),
                IdentityScope.valueOf(rs.getString("identity_scope")),
                ExpiredOfferPolicy.valueOf(rs.getString("expired_offer_policy")),
                AfterPurchase.valueOf(rs.getString("after_purchase")),
                rs.getDouble("max_joins_per_second"),
                rs.getLong("proof_of_work_difficulty"));
        return new Event(
                new EventId(rs.getString("event_id")),
                config,
                EventPhase.valueOf(rs.getString("phase")),
                OperatingMode.valueOf(rs.getString("mode")),
                rs.getLong("sale_generation"),
                seed(rs),
                rs.getString("commitment"),
                draw(rs.getObject("seed_revealed_at", OffsetDateTime.class)),
                rs.getObject("seed_published_at", OffsetDateTime.class) != null,
                rs.getString("announcement"),
                Routes.map(rs),
                EventLifecycle.valueOf(rs.getString("lifecycle")));
    }

    /** The seed, opened from its sealed form; a row still in plain text (sealed at the next start) as it is. */
    private String seed(ResultSet rs) throws SQLException {
        String sealed = rs.getString("sealed_seed");
        String eventId = rs.getString("event_id");
        return sealed == null
                ? rs.getString("seed")
                : this.seeds.open(EventId.of(eventId), sealed).seedHex();
    }

    /*
     * The draw's state and the row, both ways, in one place: seed_revealed_at is set exactly when the draw has run.
     */

    private static DrawState draw(OffsetDateTime seedRevealedAt) {
        return seedRevealedAt == null ? DrawState.PENDING : DrawState.DRAWN;
    }

    /** The SQL condition on the events row (named {@code qualifier} in the statement) that holds in {@code state}. */
    public static String drawIs(DrawState state, String qualifier) {
        return qualifier + ".seed_revealed_at "
                + switch (state) {
                    case PENDING -> "is null";
                    case DRAWN -> "is not null";
                };
    }
}
