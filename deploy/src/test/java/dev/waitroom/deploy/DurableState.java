package dev.waitroom.deploy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the authorities directly (the coordinator's grants and leases, booking's seats and orders) to check the
 * invariants of docs/design/architecture.md#invariants after a fault: the services' own answers are not trusted for this.
 */
final class DurableState {

    private final LocalStack stack;

    DurableState(LocalStack stack) {
        this.stack = stack;
    }

    private Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(stack.jdbcUrl(database), stack.postgresUser(), stack.postgresPassword());
    }

    long liveGrants(String eventId) throws SQLException {
        return single(
                "coordinator",
                "select count(*) from grants where event_id = ? and state in ('OFFERED','ACTIVE')",
                eventId);
    }

    long visitorsWithTwoLiveGrants(String eventId) throws SQLException {
        return single("coordinator", """
                select count(*) from (select visitor from grants where event_id = ? and state in ('OFFERED','ACTIVE')
                group by visitor having count(*) > 1) twice""", eventId);
    }

    /** Grants that are neither live nor ended with a release time and reason: capacity that went missing. */
    long grantsInLimbo(String eventId) throws SQLException {
        return single("coordinator", """
                select count(*) from grants where event_id = ? and state not in ('OFFERED','ACTIVE')
                and (released_at is null and purchased_at is null)""", eventId);
    }

    long grantsOffered(String eventId) throws SQLException {
        return single("coordinator", "select count(*) from grants where event_id = ?", eventId);
    }

    long grantsOfferedAfter(String eventId, java.time.Instant at) throws SQLException {
        return grantsWithGenerationOfferedAfter(eventId, null, at);
    }

    /** Grants offered after {@code at}, by any generation or (when given) by that fencing generation only. */
    long grantsWithGenerationOfferedAfter(String eventId, Long generation, java.time.Instant at) throws SQLException {
        return single(
                "coordinator",
                "select count(*) from grants where event_id = ? and offered_at > ?"
                        + " and (?::bigint is null or generation = ?::bigint)",
                s -> {
                    s.setString(1, eventId);
                    s.setObject(2, java.sql.Timestamp.from(at));
                    s.setObject(3, generation, java.sql.Types.BIGINT);
                    s.setObject(4, generation, java.sql.Types.BIGINT);
                });
    }

    /** Pairs of first offers where a later offer went to an entry with an earlier place in the policy order. */
    long offersOutOfOrder(String eventId) throws SQLException {
        return single("coordinator", """
                with firsts as (select entry_id, min(offered_at) as first_offered, min(order_key) as order_key
                                from grants where event_id = ? group by entry_id)
                select count(*) from firsts a join firsts b
                  on a.first_offered < b.first_offered and a.order_key > b.order_key""", eventId);
    }

    Map<String, Object> lease(String eventId) throws SQLException {
        try (Connection c = connect("coordinator");
                var s = c.prepareStatement(
                        "select owner, generation, expires_at > now() as held from leases where event_id = ?")) {
            s.setString(1, eventId);
            try (ResultSet rs = s.executeQuery()) {
                Map<String, Object> lease = new LinkedHashMap<>();
                if (rs.next()) {
                    lease.put("owner", rs.getString(1));
                    lease.put("generation", rs.getLong(2));
                    lease.put("held", rs.getBoolean(3));
                }
                return lease;
            }
        }
    }

    long seatsSoldTwice(String eventId) throws SQLException {
        return single("booking", """
                select count(*) from (select hs.seat_id from orders o join hold_seats hs on hs.hold_id = o.hold_id
                where o.event_id = ? and o.state = 'PAID' group by hs.seat_id having count(*) > 1) twice""", eventId);
    }

    long paidOrders(String eventId) throws SQLException {
        return single("booking", "select count(*) from orders where event_id = ? and state = 'PAID'", eventId);
    }

    List<String> invariantViolations(String eventId, int ceiling) throws SQLException {
        List<String> violations = new ArrayList<>();
        long live = liveGrants(eventId);
        if (live > ceiling) {
            violations.add("live grants " + live + " above the ceiling " + ceiling);
        }
        // each count is of things that must not exist
        Map<String, Long> none = new LinkedHashMap<>();
        none.put("visitors with two live grants", visitorsWithTwoLiveGrants(eventId));
        none.put("grants neither live nor released", grantsInLimbo(eventId));
        none.put("pairs of offers out of policy order", offersOutOfOrder(eventId));
        none.put("seats sold twice", seatsSoldTwice(eventId));
        none.forEach((what, count) -> {
            if (count > 0) {
                violations.add(count + " " + what);
            }
        });
        return violations;
    }

    private long single(String database, String sql, String eventId) throws SQLException {
        return single(database, sql, s -> s.setString(1, eventId));
    }

    private long single(String database, String sql, Parameters parameters) throws SQLException {
        try (Connection c = connect(database);
                var s = c.prepareStatement(sql)) {
            parameters.set(s);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @FunctionalInterface
    private interface Parameters {
        void set(PreparedStatement statement) throws SQLException;
    }
}
