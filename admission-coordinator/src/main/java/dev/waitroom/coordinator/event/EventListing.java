package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventLifecycle;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The operators' list of events (docs/operating/event-lifecycle.md#the-list): filtered, in event id order, one page at
 * a time by keyset. The cursor is the last id of the page before, so a page never repeats or skips an event that
 * existed when the listing began, whatever is created or deleted meanwhile; an event created meanwhile appears once if
 * its id sorts after the cursor. Reads only the events table (its primary key and the lifecycle index).
 */
@Repository
public class EventListing {

    /** The largest page. */
    public static final int MAX_LIMIT = 200;

    /** The page when none is asked for. */
    public static final int DEFAULT_LIMIT = 50;

    /** The longest id or name prefix, in characters (an event name is at most {@link EventConfig#MAX_NAME}). */
    public static final int MAX_PREFIX = EventConfig.MAX_NAME;

    private static final String CURSOR_VERSION = "e1:";

    private static final String SELECT = """
            select event_id, name, lifecycle, phase, mode, opens_at, created_at, published_at, archived_at,
                max_active_sessions, max_admissions_per_second
            from events
            """;

    private final JdbcClient jdbc;

    EventListing(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * What to list: each null is "any"; {@code lifecycles} is never empty (the default leaves archived events out).
     * {@code opensFrom} is inclusive, {@code opensBefore} exclusive; either excludes events with no opening time.
     */
    public record Filter(
            Set<EventLifecycle> lifecycles,
            EventPhase phase,
            OperatingMode mode,
            String prefix,
            Instant opensFrom,
            Instant opensBefore,
            int limit,
            String after) {

        public Filter {
            if (lifecycles == null || lifecycles.isEmpty()) {
                throw bad("the filters leave no lifecycle state to list");
            }
            lifecycles = Set.copyOf(lifecycles);
            if (limit < 1 || limit > MAX_LIMIT) {
                throw bad("limit must be 1.." + MAX_LIMIT);
            }
            if (prefix != null && (prefix.isEmpty() || prefix.length() > MAX_PREFIX || !printable(prefix))) {
                throw bad("prefix must be 1.." + MAX_PREFIX + " printable characters");
            }
            if (opensFrom != null && opensBefore != null && !opensFrom.isBefore(opensBefore)) {
                throw bad("opensFrom must be before opensBefore");
            }
        }

        /** Every state but ARCHIVED: the list's default. */
        public static Set<EventLifecycle> notArchived() {
            return EnumSet.complementOf(EnumSet.of(EventLifecycle.ARCHIVED));
        }
    }

    /** One event, as the list shows it. */
    public record Summary(
            String eventId,
            String name,
            String state,
            String phase,
            String mode,
            Instant opensAt,
            Instant createdAt,
            Instant publishedAt,
            Instant archivedAt,
            int maxActiveSessions,
            double maxAdmissionsPerSecond) {}

    /** A page and the cursor of the next one (null: this was the last). */
    public record Page(List<Summary> events, String nextCursor) {}

    public Page list(Filter f) {
        StringBuilder sql = new StringBuilder(SELECT).append("where lifecycle in (:lifecycles)");
        Map<String, Object> p = new HashMap<>();
        p.put("lifecycles", f.lifecycles().stream().map(Enum::name).sorted().toList());
        if (f.phase() != null) {
            sql.append(" and phase = :phase");
            p.put("phase", f.phase().name());
        }
        if (f.mode() != null) {
            sql.append(" and mode = :mode");
            p.put("mode", f.mode().name());
        }
        if (f.prefix() != null) {
            sql.append(" and (event_id like :prefix escape '\\' or lower(name) like lower(:prefix) escape '\\')");
            p.put("prefix", likePrefix(f.prefix()));
        }
        if (f.opensFrom() != null) {
            sql.append(" and opens_at >= :opensFrom");
            p.put("opensFrom", OffsetDateTime.ofInstant(f.opensFrom(), ZoneOffset.UTC));
        }
        if (f.opensBefore() != null) {
            sql.append(" and opens_at < :opensBefore");
            p.put("opensBefore", OffsetDateTime.ofInstant(f.opensBefore(), ZoneOffset.UTC));
        }
        if (f.after() != null) {
            sql.append(" and event_id > :after");
            p.put("after", f.after());
        }
        sql.append(" order by event_id limit :limit");
        p.put("limit", f.limit() + 1);
        List<Summary> rows = new ArrayList<>(this.jdbc
                .sql(sql.toString())
                .params(p)
                .query((rs, n) -> new Summary(
                        rs.getString("event_id"),
                        rs.getString("name"),
                        rs.getString("lifecycle"),
                        rs.getString("phase"),
                        rs.getString("mode"),
                        instant(rs.getObject("opens_at", OffsetDateTime.class)),
                        instant(rs.getObject("created_at", OffsetDateTime.class)),
                        instant(rs.getObject("published_at", OffsetDateTime.class)),
                        instant(rs.getObject("archived_at", OffsetDateTime.class)),
                        rs.getInt("max_active_sessions"),
                        rs.getDouble("max_admissions_per_second")))
                .list());
        if (rows.size() <= f.limit()) {
            return new Page(rows, null);
        }
        rows.remove(rows.size() - 1);
        return new Page(rows, cursor(rows.get(rows.size() - 1).eventId()));
    }

    /** The opaque cursor after {@code eventId}. */
    static String cursor(String eventId) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((CURSOR_VERSION + eventId).getBytes(StandardCharsets.UTF_8));
    }

    /** The event id a cursor of {@link #cursor} stands after; 400 {@code malformed-request} for anything else. */
    public static String after(String cursor) {
        String decoded;
        try {
            decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException ex) {
            throw bad("cursor is not one this API gave out");
        }
        if (!decoded.startsWith(CURSOR_VERSION) || decoded.length() == CURSOR_VERSION.length()) {
            throw bad("cursor is not one this API gave out");
        }
        String id = decoded.substring(CURSOR_VERSION.length());
        if (!dev.waitroom.contract.EventId.isValid(id)) {
            throw bad("cursor is not one this API gave out");
        }
        return id;
    }

    private static String likePrefix(String prefix) {
        return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    private static boolean printable(String s) {
        return s.codePoints().noneMatch(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT);
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }

    private static CoordinatorException bad(String message) {
        return new CoordinatorException(ProblemType.MALFORMED_REQUEST, message);
    }
}
