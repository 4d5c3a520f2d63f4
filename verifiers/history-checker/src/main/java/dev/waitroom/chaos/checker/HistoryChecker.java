package dev.waitroom.chaos.checker;

import dev.waitroom.chaos.checker.History.Op;
import dev.waitroom.chaos.checker.History.Outcome;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Reads a chaos run's history and the stores afterwards and states, for each invariant of issue #31, whether it held,
 * with counter-examples (docs/operating/chaos.md#the-verdict). It trusts no service's answer about the stores: it
 * reads PostgreSQL and Redis by the schemas docs/reference/contracts.md documents, and the history only for what clients saw.
 */
public final class HistoryChecker {

    /** Redis queue entry record: {@code state|orderKey|visitor|joinedAt|requeues} (docs/reference/contracts.md). */
    private static final Pattern ENTRY = Pattern.compile("^([A-Z])\\|(\\d+)\\|([^|]*)\\|(\\d+)\\|(\\d+)$");

    private static final Set<String> LIVE = Set.of("OFFERED", "ACTIVE");

    /**
     * How long past its deadline a store object may still be waiting for the expiry ticker when the stores are read;
     * the run settles before the check, so anything older than this is stuck, not late.
     */
    static final long STUCK_AFTER_SECONDS = 20;

    private final History history;
    private final Stores stores;
    private final List<String> events;

    private HistoryChecker(History history, Stores stores) {
        this.history = history;
        this.stores = stores;
        this.events = history.events().stream().map(History.Sale::event).toList();
    }

    public static Verdict check(History history, Stores stores) throws SQLException {
        HistoryChecker c = new HistoryChecker(history, stores);
        List<Verdict.Invariant> invariants = new ArrayList<>();
        invariants.add(c.ceiling());
        invariants.add(c.noSeatSoldTwice());
        invariants.add(c.acknowledgedPurchasesExist());
        invariants.add(c.noPaidOrderWithoutPayment());
        invariants.add(c.noAcknowledgedJoinLost());
        invariants.add(c.offersInPublishedOrder());
        invariants.add(c.noAdmissionWhilePausedOrSoldOut());
        invariants.add(c.noSessionSurvivesItsRelease());
        invariants.add(c.unknownOutcomesResolved());
        return new Verdict(history.seed(), invariants);
    }

    /** {@code java -cp ... HistoryChecker <history.jsonl> <stores.properties>}: the verdict, exit 1 when it fails. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: HistoryChecker <history.jsonl> <stores.properties>");
            System.exit(64);
        }
        java.util.Properties p = new java.util.Properties();
        try (var in = java.nio.file.Files.newInputStream(Path.of(args[1]))) {
            p.load(in);
        }
        Map<String, Stores.RedisAddress> redis = new LinkedHashMap<>();
        for (String region : p.getProperty("redis.regions", "").split(",", -1)) {
            String prefix = "redis." + (region.isEmpty() ? "default" : region) + ".";
            redis.put(
                    region,
                    new Stores.RedisAddress(
                            p.getProperty(prefix + "host", "127.0.0.1"),
                            Integer.parseInt(p.getProperty(prefix + "port")),
                            p.getProperty("redis.password", "")));
        }
        Stores stores = new Stores(
                p.getProperty("coordinator.jdbc"),
                p.getProperty("booking.jdbc"),
                p.getProperty("postgres.user"),
                p.getProperty("postgres.password"),
                redis);
        Verdict verdict = check(History.read(Path.of(args[0])), stores);
        System.out.print(verdict.text());
        System.exit(verdict.passed() ? 0 : 1);
    }

    // ---------------------------------------------------------------------------------------------------------

    /** Live grants never above the ceiling: every 100 ms sample of the ledger, and the ledger at the end. */
    private Verdict.Invariant ceiling() throws SQLException {
        Verdict.Builder b = new Verdict.Builder("live grants never exceeded the ceiling (samples and end)");
        Map<String, Long> ceilings = new HashMap<>();
        history.events().forEach(e -> ceilings.put(e.event(), e.ceiling()));
        Map<String, Long> max = new TreeMap<>();
        Map<String, Long> longestGap = new TreeMap<>();
        Map<String, Long> last = new HashMap<>();
        for (History.Sample s : history.samples()) {
            b.checked();
            max.merge(s.event(), s.live(), Math::max);
            Long previous = last.put(s.event(), s.at());
            if (previous != null) {
                longestGap.merge(s.event(), s.at() - previous, Math::max);
            }
            if (s.live() > s.ceiling()) {
                b.violation("sample at " + s.at() + " of " + s.event() + ": " + s.live() + " live grants, ceiling "
                        + s.ceiling());
            }
        }
        for (String e : events) {
            if (!max.containsKey(e)) {
                b.violation(e + ": no sample of the ledger was taken");
            }
        }
        b.note("max sampled per event " + max + "; longest gap between samples (ms) " + longestGap
                + " (the ledger is unreadable while PostgreSQL restarts)");
        try (Connection c = stores.coordinator();
                PreparedStatement s = c.prepareStatement("select event_id, count(*) from grants where event_id = any(?)"
                        + " and state in ('OFFERED','ACTIVE') group by event_id")) {
            s.setArray(1, c.createArrayOf("text", events.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    b.checked();
                    long ceiling = ceilings.getOrDefault(rs.getString(1), Long.MAX_VALUE);
                    if (rs.getLong(2) > ceiling) {
                        b.violation("at the end " + rs.getString(1) + " has " + rs.getLong(2) + " live grants, ceiling "
                                + ceiling);
                    }
                }
            }
        }
        return b.build();
    }

    /** No seat in two paid orders; the sold-seat ledger agrees with the paid orders. */
    private Verdict.Invariant noSeatSoldTwice() throws SQLException {
        Verdict.Builder b = new Verdict.Builder("no seat was sold twice");
        try (Connection c = stores.booking()) {
            Array ids = c.createArrayOf("text", events.toArray());
            try (PreparedStatement s = c.prepareStatement("""
                    select hs.event_id, hs.seat_id, string_agg(o.order_id::text, ',')
                    from orders o join hold_seats hs on hs.hold_id = o.hold_id
                    where o.event_id = any(?) and o.state = 'PAID'
                    group by hs.event_id, hs.seat_id having count(*) > 1""")) {
                s.setArray(1, ids);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        b.violation("seat " + rs.getString(2) + " of " + rs.getString(1) + " in paid orders "
                                + rs.getString(3));
                    }
                }
            }
            try (PreparedStatement s =
                    c.prepareStatement("select count(*) from orders where event_id = any(?) and state = 'PAID'")) {
                s.setArray(1, ids);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    b.checked(rs.getLong(1));
                    b.note(rs.getLong(1) + " paid orders");
                }
            }
        }
        return b.build();
    }

    /** Every order a client was told was created exists; every order a client saw PAID is still PAID. */
    private Verdict.Invariant acknowledgedPurchasesExist() throws SQLException {
        Verdict.Builder b = new Verdict.Builder("every acknowledged purchase exists");
        Map<String, String> states = new HashMap<>();
        try (Connection c = stores.booking();
                PreparedStatement s =
                        c.prepareStatement("select order_id::text, state from orders where event_id = any(?)")) {
            s.setArray(1, c.createArrayOf("text", events.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    states.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        for (Op op : history.operations()) {
            String orderId = op.text("orderId");
            if (op.outcome() != Outcome.OK || orderId == null) {
                continue;
            }
            if (op.f().equals("order")) {
                b.checked();
                if (!states.containsKey(orderId)) {
                    b.violation("order acknowledged but not in booking: " + op.describe());
                }
            } else if (op.f().equals("order-status") && "PAID".equals(op.text("state"))) {
                b.checked();
                if (!"PAID".equals(states.get(orderId))) {
                    b.violation("order seen PAID is now " + states.get(orderId) + ": " + op.describe());
                }
            }
        }
        return b.build();
    }

    private Verdict.Invariant noPaidOrderWithoutPayment() throws SQLException {
        Verdict.Builder b = new Verdict.Builder("no order is paid without a successful payment");
        try (Connection c = stores.booking();
                PreparedStatement s = c.prepareStatement("""
                    select o.order_id::text, o.event_id,
                           exists (select 1 from payment_attempts p where p.order_id = o.order_id
                                   and p.state = 'SUCCEEDED') as paid
                    from orders o where o.event_id = any(?) and o.state = 'PAID'""")) {
            s.setArray(1, c.createArrayOf("text", events.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    b.checked();
                    if (!rs.getBoolean(3)) {
                        b.violation("order " + rs.getString(1) + " of " + rs.getString(2)
                                + " is PAID with no SUCCEEDED payment attempt");
                    }
                }
            }
        }
        return b.build();
    }

    /**
     * Every acknowledged join's entry is in its region's Redis: WAITING, or OFFERED/ACTIVE with a grant, or ended
     * (COMPLETED, EXPIRED) with a grant that records why, or LEFT after a leave of that visitor.
     */
    private Verdict.Invariant noAcknowledgedJoinLost() throws SQLException {
        Verdict.Builder b =
                new Verdict.Builder("no acknowledged join was lost (waiting, offered or ended with a reason)");
        record Key(String event, String region, String receipt) {}
        Map<Key, Op> joins = new LinkedHashMap<>();
        Map<String, Long> leaves = new HashMap<>();
        for (Op op : history.operations()) {
            if (op.f().equals("join") && op.outcome() == Outcome.OK && op.text("receipt") != null) {
                joins.putIfAbsent(new Key(op.event(), op.region(), op.text("receipt")), op);
            }
            if (op.f().equals("leave-queue") || op.f().equals("leave")) {
                leaves.merge(op.process(), op.invokedAt(), Math::min);
            }
        }
        // Redis first, PostgreSQL after: an offer's grant is committed before its queue entry is marked (the
        // coordinator tells the queue through its outbox), so every entry read OFFERED here has its grant visible in
        // the later read, even while the sale goes on (seed 32 read them the other way round and saw an offer made
        // between the two reads as an entry with no grant)
        Map<Key, String> records = new LinkedHashMap<>();
        Map<String, Jedis> redis = new HashMap<>();
        try {
            for (Key k : joins.keySet()) {
                long seq;
                try {
                    seq = Long.parseLong(k.receipt(), 36);
                } catch (NumberFormatException e) {
                    records.put(k, "receipt is no entry id");
                    continue;
                }
                Jedis j = redis.computeIfAbsent(k.region(), this::redis);
                records.put(k, j.hget("wr:{" + k.event() + "}:e:" + (seq / 128), String.valueOf(seq % 128)));
            }
        } finally {
            redis.values().forEach(Jedis::close);
        }
        Map<Key, List<String>> grants = new HashMap<>();
        try (Connection c = stores.coordinator();
                PreparedStatement s = c.prepareStatement("select event_id, region, entry_id, state,"
                        + " coalesce(release_reason, '') from grants where event_id = any(?)")) {
            s.setArray(1, c.createArrayOf("text", events.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    grants.computeIfAbsent(
                                    new Key(rs.getString(1), rs.getString(2), rs.getString(3)), k -> new ArrayList<>())
                            .add(rs.getString(4) + ":" + rs.getString(5));
                }
            }
        }
        Map<String, Long> byState = new TreeMap<>();
        for (Map.Entry<Key, Op> join : joins.entrySet()) {
            Key k = join.getKey();
            b.checked();
            String record = records.get(k);
            Matcher m = record == null ? null : ENTRY.matcher(record);
            if (m == null || !m.matches()) {
                b.violation("entry " + k.receipt() + " missing from Redis (" + record + "): "
                        + join.getValue().describe());
                continue;
            }
            String state = m.group(1);
            byState.merge(state, 1L, Long::sum);
            List<String> its = grants.getOrDefault(k, List.of());
            switch (state) {
                case "W" -> {
                    // waiting: its place is its order key, checked with the offers' order
                }
                case "O", "A" -> {
                    if (its.isEmpty()) {
                        b.violation("entry " + k.receipt() + " is " + state + " in the queue with no grant: "
                                + join.getValue().describe());
                    }
                }
                case "C", "E" -> {
                    if (its.stream().noneMatch(g -> !g.endsWith(":"))) {
                        b.violation("entry " + k.receipt() + " ended " + state + " with no grant recording why " + its
                                + ": " + join.getValue().describe());
                    }
                }
                case "L" -> {
                    if (!leaves.containsKey(join.getValue().process())
                            && its.stream().noneMatch(g -> g.endsWith(":WITHDRAWN") || g.endsWith(":LEFT"))) {
                        b.violation("entry " + k.receipt() + " LEFT though its visitor never left: "
                                + join.getValue().describe());
                    }
                }
                default -> b.violation("entry " + k.receipt() + " in unknown state " + record);
            }
        }
        b.note("acknowledged entries by queue state at the end " + byState);
        return b.build();
    }

    /**
     * Offers in the published order: within a region's queue, no entry was first offered after an entry with a later
     * place (order key) was. A region's gate offers from its own queue only (docs/operating/regions.md), so the stated bound
     * between regions is that each keeps its own order; across regions nothing is compared.
     */
    private Verdict.Invariant offersInPublishedOrder() throws SQLException {
        Verdict.Builder b = new Verdict.Builder("offers respect the published order (per region)");
        try (Connection c = stores.coordinator()) {
            for (String e : events) {
                try (PreparedStatement s = c.prepareStatement("""
                        with firsts as (select region, entry_id, min(offered_at) as first_offered,
                                               min(order_key) as order_key
                                        from grants where event_id = ? group by region, entry_id)
                        select a.region, a.entry_id, a.order_key, a.first_offered, b.entry_id, b.order_key,
                               b.first_offered
                        from firsts a join firsts b on a.region = b.region
                          and a.first_offered < b.first_offered and a.order_key > b.order_key
                        order by a.first_offered limit 200""")) {
                    s.setString(1, e);
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            b.violation(e + (rs.getString(1).isEmpty() ? "" : " region " + rs.getString(1))
                                    + ": entry " + rs.getString(2) + " (place " + rs.getLong(3) + ") offered at "
                                    + rs.getTimestamp(4).toInstant() + " before entry " + rs.getString(5) + " (place "
                                    + rs.getLong(6) + ") offered at "
                                    + rs.getTimestamp(7).toInstant());
                        }
                    }
                }
                try (PreparedStatement s = c.prepareStatement(
                        "select count(distinct (region, entry_id)) from grants where event_id = ?")) {
                    s.setString(1, e);
                    try (ResultSet rs = s.executeQuery()) {
                        rs.next();
                        b.checked(rs.getLong(1));
                    }
                }
            }
        }
        return b.build();
    }

    /**
     * No offer made while the ledger says PAUSED or SOLD_OUT (offers lock the event row, so the mode change's time is
     * exact for them), and no claim admitted between an acknowledged pause or sold-out and the next resume or round
     * the workload asked for that may have taken effect ({@link #claimableAgainFrom}: the window the clients know the
     * mode was not claimable).
     */
    private Verdict.Invariant noAdmissionWhilePausedOrSoldOut() throws SQLException {
        Verdict.Builder b = new Verdict.Builder("no admission while paused or sold out");
        record Window(String event, String mode, Timestamp from, Timestamp to) {}
        List<Window> windows = new ArrayList<>();
        try (Connection c = stores.coordinator()) {
            try (PreparedStatement s = c.prepareStatement("select event_id, to_value, at from mode_changes"
                    + " where kind = 'MODE' and event_id = any(?) order by event_id, at, id")) {
                s.setArray(1, c.createArrayOf("text", events.toArray()));
                try (ResultSet rs = s.executeQuery()) {
                    Window open = null;
                    while (rs.next()) {
                        String e = rs.getString(1);
                        if (open != null
                                && (!open.event().equals(e) || !open.mode().equals(rs.getString(2)))) {
                            windows.add(new Window(
                                    open.event(),
                                    open.mode(),
                                    open.from(),
                                    open.event().equals(e) ? rs.getTimestamp(3) : null));
                            open = null;
                        }
                        if (open == null && Set.of("PAUSED", "SOLD_OUT").contains(rs.getString(2))) {
                            open = new Window(e, rs.getString(2), rs.getTimestamp(3), null);
                        }
                    }
                    if (open != null) {
                        windows.add(open);
                    }
                }
            }
            b.note(windows.size() + " paused or sold-out windows in the ledger");
            for (Window w : windows) {
                try (PreparedStatement s = c.prepareStatement("select entry_id, region, offered_at from grants"
                        + " where event_id = ? and offered_at > ? and (?::timestamptz is null or offered_at < ?)")) {
                    s.setString(1, w.event());
                    s.setTimestamp(2, w.from());
                    s.setTimestamp(3, w.to());
                    s.setTimestamp(4, w.to());
                    try (ResultSet rs = s.executeQuery()) {
                        b.checked();
                        while (rs.next()) {
                            b.violation(w.event() + ": entry " + rs.getString(1) + " offered at "
                                    + rs.getTimestamp(3).toInstant() + " while " + w.mode() + " ("
                                    + w.from().toInstant()
                                    + " .. " + (w.to() == null ? "end" : w.to().toInstant()) + ")");
                        }
                    }
                }
            }
            List<Op> ops = history.operations().stream()
                    .filter(o -> o.process().equals("ops"))
                    .toList();
            for (int i = 0; i < ops.size(); i++) {
                Op stop = ops.get(i);
                if (stop.outcome() != Outcome.OK
                        || (!stop.f().equals("pause") && !stop.f().equals("sold-out"))) {
                    continue;
                }
                long until = claimableAgainFrom(ops, i);
                try (PreparedStatement s = c.prepareStatement("select entry_id, activated_at from grants"
                        + " where event_id = ? and activated_at > ? and activated_at < ?")) {
                    s.setString(1, stop.event());
                    s.setTimestamp(2, new Timestamp(stop.completedAt()));
                    s.setTimestamp(3, new Timestamp(Math.min(until, 4_000_000_000_000L)));
                    try (ResultSet rs = s.executeQuery()) {
                        b.checked();
                        while (rs.next()) {
                            b.violation(stop.event() + ": entry " + rs.getString(1) + " claimed at "
                                    + rs.getTimestamp(2).toInstant() + " after the acknowledged " + stop.describe());
                        }
                    }
                }
            }
        }
        return b.build();
    }

    /**
     * When the clients can no longer know that the event stopped by the acknowledged pause or sold-out at
     * {@code ops[stop]} is still closed: the invocation of the next resume or round for its event that may have taken
     * effect. That is one acknowledged, one with no answer, and one refused with a 5xx: a gateway answers 503
     * {@code upstream-unavailable} when its upstream's answer was lost, after the coordinator may have applied it. Only a
     * 4xx is a refusal the coordinator made. {@link Long#MAX_VALUE} when none follows.
     */
    static long claimableAgainFrom(List<Op> ops, int stop) {
        String event = ops.get(stop).event();
        for (int k = stop + 1; k < ops.size(); k++) {
            Op next = ops.get(k);
            boolean reopens = next.f().equals("resume") || next.f().equals("round");
            boolean mayHaveTakenEffect = next.outcome() != Outcome.REFUSED || next.status() >= 500;
            if (next.event().equals(event) && reopens && mayHaveTakenEffect) {
                return next.invokedAt();
            }
        }
        return Long.MAX_VALUE;
    }

    /**
     * A released or expired session is gone from its region's live-session registry, and no shop request made with a
     * token after its leave was acknowledged was served.
     */
    private Verdict.Invariant noSessionSurvivesItsRelease() throws SQLException {
        Verdict.Builder b = new Verdict.Builder("no session survives its release");
        Map<String, Jedis> redis = new HashMap<>();
        try (Connection c = stores.coordinator();
                PreparedStatement s = c.prepareStatement("select event_id, region, session_id::text, state,"
                        + " coalesce(release_reason, '') from grants where event_id = any(?)"
                        + " and session_id is not null and state not in ('OFFERED','ACTIVE')")) {
            s.setArray(1, c.createArrayOf("text", events.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    b.checked();
                    Jedis j = redis.computeIfAbsent(rs.getString(2), this::redis);
                    String key = "wr:{" + rs.getString(1) + "}:session:" + rs.getString(3);
                    if (j.exists(key)) {
                        b.violation(key + " still in the registry; grant " + rs.getString(4) + " " + rs.getString(5));
                    }
                }
            }
        } finally {
            redis.values().forEach(Jedis::close);
        }
        for (Op op : history.operations()) {
            if (op.f().equals("probe-after-leave")) {
                b.checked();
                if (op.outcome() == Outcome.OK) {
                    b.violation("a shop request with a released session's token was served: " + op.describe());
                }
            }
        }
        return b.build();
    }

    /**
     * Every unknown outcome resolved: a join that timed out is followed by an answer that names the visitor's entry;
     * and after the run settled, no store object such an operation may have left half-way is still in between: no
     * offer or session past its deadline still live, no hold past its expiry still active, no order still awaiting a
     * payment long after its attempt.
     */
    private Verdict.Invariant unknownOutcomesResolved() throws SQLException {
        Verdict.Builder b = new Verdict.Builder("every unknown outcome resolved in the stores");
        Map<String, Long> unknownByOp = new TreeMap<>();
        Map<String, List<Op>> byProcess = new HashMap<>();
        for (Op op : history.operations()) {
            byProcess.computeIfAbsent(op.process(), p -> new ArrayList<>()).add(op);
            if (op.outcome() == Outcome.UNKNOWN) {
                unknownByOp.merge(op.f(), 1L, Long::sum);
            }
        }
        Map<JoinResolution, Long> joins = new TreeMap<>();
        for (List<Op> ops : byProcess.values()) {
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                if (!op.f().equals("join") || op.outcome() != Outcome.UNKNOWN) {
                    continue;
                }
                b.checked();
                JoinResolution resolution = resolveJoin(ops, i);
                joins.merge(resolution, 1L, Long::sum);
                if (resolution == JoinResolution.UNRESOLVED) {
                    b.violation("join with unknown outcome never resolved by a later answer: " + op.describe());
                }
            }
        }
        b.note("unknown outcomes by operation " + unknownByOp + "; unknown joins that took effect "
                + joins.getOrDefault(JoinResolution.TOOK_EFFECT, 0L) + ", that did not "
                + joins.getOrDefault(JoinResolution.DID_NOT_TAKE_EFFECT, 0L) + ", refused after (sold out or ended) "
                + joins.getOrDefault(JoinResolution.REFUSED_AFTER, 0L));
        try (Connection c = stores.coordinator();
                PreparedStatement s = c.prepareStatement("""
                    select event_id, entry_id, state, offer_expires_at, session_expires_at from grants
                    where event_id = any(?) and ((state = 'OFFERED' and offer_expires_at < now() - make_interval(secs => ?))
                       or (state = 'ACTIVE' and least(session_expires_at, absolute_expires_at)
                                                < now() - make_interval(secs => ?)))""")) {
            s.setArray(1, c.createArrayOf("text", events.toArray()));
            s.setLong(2, STUCK_AFTER_SECONDS);
            s.setLong(3, STUCK_AFTER_SECONDS);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    b.violation(rs.getString(1) + ": grant of entry " + rs.getString(2) + " still " + rs.getString(3)
                            + " past its deadline (offer " + rs.getTimestamp(4) + ", session " + rs.getTimestamp(5)
                            + ")");
                }
            }
        }
        try (Connection c = stores.booking()) {
            try (PreparedStatement s = c.prepareStatement(
                    "select event_id, hold_id::text, expires_at from holds"
                            + " where event_id = any(?) and state = 'ACTIVE' and expires_at < now() - make_interval(secs => ?)")) {
                s.setArray(1, c.createArrayOf("text", events.toArray()));
                s.setLong(2, STUCK_AFTER_SECONDS);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        b.violation(rs.getString(1) + ": hold " + rs.getString(2) + " still ACTIVE past "
                                + rs.getTimestamp(3));
                    }
                }
            }
            try (PreparedStatement s = c.prepareStatement("""
                    select o.event_id, o.order_id::text, o.created_at from orders o
                    where o.event_id = any(?) and o.state = 'PENDING_PAYMENT'
                      and o.updated_at < now() - make_interval(secs => ?)""")) {
                s.setArray(1, c.createArrayOf("text", events.toArray()));
                s.setLong(2, 3 * STUCK_AFTER_SECONDS);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        b.violation(rs.getString(1) + ": order " + rs.getString(2) + " created "
                                + rs.getTimestamp(3).toInstant() + " still PENDING_PAYMENT");
                    }
                }
            }
        }
        b.checked(unknownByOp.entrySet().stream()
                .filter(u -> !u.getKey().equals("join"))
                .mapToLong(Map.Entry::getValue)
                .sum());
        // the scans above looked at every grant, hold and order of the run's events, whatever the answers were: a run
        // without a single unknown outcome (no fault left a request unanswered) still checked that nothing is stuck
        long scanned = countOf(stores.coordinator(), "grants")
                + countOf(stores.booking(), "holds")
                + countOf(stores.booking(), "orders");
        b.checked(scanned);
        b.note(scanned + " grants, holds and orders of the run's events scanned for one stuck half-way");
        return b.build();
    }

    /** How many rows of {@code table} belong to the run's events; closes {@code connection}. */
    private long countOf(Connection connection, String table) throws SQLException {
        try (Connection c = connection;
                PreparedStatement s =
                        c.prepareStatement("select count(*) from " + table + " where event_id = any(?)")) {
            s.setArray(1, c.createArrayOf("text", events.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** What the answers after a visitor's join with no answer say about it. */
    enum JoinResolution {
        /** A later answer named the visitor's entry, and not as a new one. */
        TOOK_EFFECT,
        /** A later join made the entry (201): the lost one had not. */
        DID_NOT_TAKE_EFFECT,
        /**
         * A later join was refused because no place can be had any more ({@code sold-out}, {@code event-ended}): the
         * queue answers a visitor's existing entry even then (join.lua, unless the visitor left it), so the lost join
         * left no entry.
         */
        REFUSED_AFTER,
        UNRESOLVED
    }

    private static final Set<String> NO_PLACE_LEFT = Set.of("sold-out", "event-ended");

    /** The first later answer of this visitor ({@code ops}, in order) that settles the join at {@code unknown}. */
    static JoinResolution resolveJoin(List<Op> ops, int unknown) {
        for (int k = unknown + 1; k < ops.size(); k++) {
            Op later = ops.get(k);
            if (later.outcome() == Outcome.OK && later.text("receipt") != null) {
                return later.f().equals("join") && later.status() == 201
                        ? JoinResolution.DID_NOT_TAKE_EFFECT
                        : JoinResolution.TOOK_EFFECT;
            }
            if (later.f().equals("join")
                    && later.outcome() == Outcome.REFUSED
                    && later.problem() != null
                    && NO_PLACE_LEFT.contains(
                            later.problem().substring(later.problem().lastIndexOf('/') + 1))) {
                return JoinResolution.REFUSED_AFTER;
            }
        }
        return JoinResolution.UNRESOLVED;
    }

    private Jedis redis(String region) {
        Stores.RedisAddress a = stores.redis().get(region);
        if (a == null) {
            throw new IllegalArgumentException("no Redis given for region '" + region + "'");
        }
        return new Jedis(
                new HostAndPort(a.host(), a.port()),
                DefaultJedisClientConfig.builder()
                        .password(a.password().isEmpty() ? null : a.password())
                        .timeoutMillis(5000)
                        .build());
    }
}
