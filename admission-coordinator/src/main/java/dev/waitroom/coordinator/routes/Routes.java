package dev.waitroom.coordinator.routes;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventLifecycle;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.routes.ProtectedPath;
import dev.waitroom.contract.routes.Protection;
import dev.waitroom.contract.routes.RouteTable;
import dev.waitroom.coordinator.SqlLiterals;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.net.URI;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * What each event protects (docs/integration/gateway-in-front.md): validated, stored on the event's row, and gathered
 * into the {@link RouteTable} the gateway routes by. A protection is refused when it names one of Waitroom's own ports
 * ({@code bad-origin}), reaches into Waitroom's own paths ({@code bad-route}) or overlaps a path of another event that
 * has not ended ({@code route-conflict}, naming the event and its path). Assignments take one advisory lock in their
 * transaction, so two concurrent assignments of overlapping paths cannot both pass the overlap check.
 */
@Service
public class Routes {

    /** The advisory lock serialising route assignments (an arbitrary constant, "wr-routes"). */
    private static final long LOCK = 0x77722d726f757465L;

    /** Drafts and archived events protect nothing in the table (docs/operating/event-lifecycle.md). */
    private static final String LIVE =
            "select event_id, protect_origin, protect_host, protect_paths, protect_allow from events "
                    + "where protect_origin is not null and phase <> " + SqlLiterals.of(EventPhase.ENDED)
                    + " and lifecycle in (" + SqlLiterals.list(EventLifecycle.LIVE) + ")";

    private final JdbcClient jdbc;

    private final Set<Integer> reservedPorts;

    private final URI defaultOrigin;

    private final Clock clock;

    Routes(
            JdbcClient jdbc,
            RoutesProperties properties,
            Clock clock,
            @Value("${server.port:8082}") int serverPort,
            @Value("${management.server.port:-1}") int managementPort,
            @Value("${waitroom.services.queue-url:}") String queueUrl) {
        this.jdbc = jdbc;
        this.clock = clock;
        Set<Integer> reserved = new TreeSet<>(properties.reservedPorts());
        reserved.add(serverPort);
        if (managementPort > 0) {
            reserved.add(managementPort);
        }
        if (!queueUrl.isBlank()) {
            reserved.add(Protection.origin(queueUrl).getPort());
        }
        reserved.remove(0);
        reserved.remove(-1);
        this.reservedPorts = Set.copyOf(reserved);
        String origin = properties.defaultProtectOrigin();
        this.defaultOrigin = origin == null || origin.isBlank() ? null : Protection.origin(origin);
    }

    /**
     * A protection from the ops API's fields; its own form checked ({@code bad-origin}, {@code bad-route}), not yet
     * against other events.
     */
    public static Protection parse(String origin, List<String> paths, String host) {
        if (paths == null) {
            throw new CoordinatorException(ProblemType.BAD_ROUTE, "protect.paths is required");
        }
        try {
            return new Protection(
                    Protection.origin(origin),
                    host,
                    paths.stream().map(ProtectedPath::of).toList(),
                    List.of());
        } catch (MalformedValueException ex) {
            throw new CoordinatorException(ex.problem(), "protect: " + ex.getMessage());
        }
    }

    /**
     * Allow rules from the ops API's {@code allow.paths} (docs/operating/allow-rules-and-passes.md), in the path
     * grammar; whether they fit the event's protected paths is {@link Protection}'s check. Null: none.
     */
    public static List<ProtectedPath> parseAllow(List<String> paths) {
        if (paths == null) {
            return List.of();
        }
        try {
            return paths.stream().map(ProtectedPath::of).toList();
        } catch (MalformedValueException ex) {
            throw new CoordinatorException(ProblemType.BAD_ALLOW_RULE, "allow.paths: " + ex.getMessage());
        }
    }

    /**
     * {@code protection} with {@code allow} as its allow rules, refused ({@code bad-allow-rule}) when they do not fit
     * its paths or there is no protection to open a part of.
     */
    public static Protection withAllow(Protection protection, List<ProtectedPath> allow) {
        if (protection == null) {
            if (allow.isEmpty()) {
                return null;
            }
            throw new CoordinatorException(
                    ProblemType.BAD_ALLOW_RULE,
                    "allow.paths needs protect.paths to open a part of: the event protects nothing");
        }
        try {
            return protection.withAllow(allow);
        } catch (MalformedValueException ex) {
            throw new CoordinatorException(ex.problem(), ex.getMessage());
        }
    }

    /** What an event created without {@code protect} protects: its shop at the default origin, or nothing. */
    public Protection defaultFor(EventId id) {
        return this.defaultOrigin == null
                ? null
                : new Protection(
                        this.defaultOrigin,
                        null,
                        List.of(ProtectedPath.of("/events/" + id.value() + "/shop/**")),
                        List.of());
    }

    /**
     * Stores what {@code id} protects (null: nothing), in the caller's transaction, after checking it against
     * Waitroom's own ports and paths and every other live event's paths.
     */
    public void assign(EventId id, Protection protection) {
        this.jdbc.sql("select pg_advisory_xact_lock(?)").param(LOCK).query().singleValue();
        if (protection != null) {
            check(id, protection);
        }
        this.jdbc
                .sql("""
                update events set protect_origin = :origin, protect_host = :host, protect_paths = :paths,
                    protect_allow = :allow, updated_at = now()
                where event_id = :id
                """)
                .param("id", id.value())
                .param("origin", protection == null ? null : protection.origin().toString())
                .param("host", protection == null ? null : protection.host())
                .param(
                        "paths",
                        protection == null ? null : protection.patterns().toArray(String[]::new))
                .param(
                        "allow",
                        protection == null
                                ? new String[0]
                                : protection.allowPatterns().toArray(String[]::new))
                .update();
    }

    private void check(EventId id, Protection protection) {
        if (this.reservedPorts.contains(protection.originPort())) {
            throw new CoordinatorException(
                    ProblemType.BAD_ORIGIN,
                    "protect.origin " + protection.origin() + " names port " + protection.originPort()
                            + ", one of Waitroom's own service or management ports");
        }
        for (ProtectedPath path : protection.paths()) {
            String reserved = path.reservedConflict(id);
            if (reserved != null) {
                throw new CoordinatorException(
                        ProblemType.BAD_ROUTE,
                        "protect.paths " + path + " overlaps Waitroom's own " + reserved
                                + " (docs/reference/contracts.md)");
            }
        }
        for (Map.Entry<EventId, Protection> other : live().entrySet()) {
            if (other.getKey().equals(id)) {
                continue;
            }
            for (ProtectedPath theirs : other.getValue().paths()) {
                for (ProtectedPath ours : protection.paths()) {
                    if (ours.overlaps(theirs)) {
                        throw new CoordinatorException(
                                ProblemType.ROUTE_CONFLICT,
                                "protect.paths " + ours + " overlaps " + theirs + " of event "
                                        + other.getKey().value());
                    }
                }
            }
        }
    }

    /** The protections of every event that has not ended. */
    public Map<EventId, Protection> live() {
        Map<EventId, Protection> out = new LinkedHashMap<>();
        this.jdbc
                .sql(LIVE)
                .query((rs, n) -> {
                    out.put(EventId.of(rs.getString("event_id")), map(rs));
                    return null;
                })
                .list();
        return out;
    }

    /** The route table of every live event, versioned by the clock (a gateway only replaces a table it holds). */
    public RouteTable table() {
        return RouteTable.of(this.clock.millis(), live());
    }

    /** The protection stored on an events row (null when it protects nothing). */
    public static Protection map(ResultSet rs) throws SQLException {
        String origin = rs.getString("protect_origin");
        if (origin == null) {
            return null;
        }
        Array paths = rs.getArray("protect_paths");
        List<ProtectedPath> patterns = Arrays.stream((String[]) paths.getArray())
                .map(ProtectedPath::of)
                .toList();
        Array allow = rs.getArray("protect_allow");
        List<ProtectedPath> allowed = allow == null
                ? List.of()
                : Arrays.stream((String[]) allow.getArray())
                        .map(ProtectedPath::of)
                        .toList();
        return new Protection(URI.create(origin), rs.getString("protect_host"), patterns, allowed);
    }
}
