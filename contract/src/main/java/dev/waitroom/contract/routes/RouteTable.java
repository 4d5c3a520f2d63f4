package dev.waitroom.contract.routes;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The protected paths of every live event, as the coordinator writes them to {@link
 * dev.waitroom.contract.RedisKeys#ROUTES} and the gateway reads them (docs/reference/contracts.md#redis-keys-and-topologies). A
 * request path does not name its event, so the gateway needs the whole table up front. Text, one line per path:
 * {@code v1 <version>} first, then {@code <eventId> <origin> <host or -> <pattern>} separated by single spaces (none of
 * the four can hold a space), and a fifth field {@code allow} on an event's allow rule (a path inside its protected
 * ones that is never queued, docs/operating/allow-rules-and-passes.md). Entries are kept most specific first, so the
 * first match is the longest: an allow rule, always narrower than the protected path it lies in, wins inside it.
 */
public record RouteTable(long version, List<Entry> entries) {

    private static final String HEADER = "v1 ";

    private static final String ALLOW_FIELD = "allow";

    /** What a matching request needs. */
    public enum Kind {
        /** The event's admission. */
        PROTECT,
        /** Nothing: forwarded to the origin without an admission check or an admission header. */
        ALLOW
    }

    /** One protected (or allowed) path of one event. */
    public record Entry(EventId eventId, URI origin, String host, ProtectedPath path, Kind kind) {

        public Entry {
            kind = kind == null ? Kind.PROTECT : kind;
        }

        /** A request matching this entry passes without admission. */
        public boolean allowed() {
            return kind == Kind.ALLOW;
        }
    }

    public RouteTable {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingInt((Entry e) -> e.path().specificity()).reversed());
        entries = List.copyOf(sorted);
    }

    public static final RouteTable EMPTY = new RouteTable(0, List.of());

    /** The table of these events' protections. */
    public static RouteTable of(long version, java.util.Map<EventId, Protection> protections) {
        List<Entry> entries = new ArrayList<>();
        protections.forEach((id, p) -> {
            p.paths().forEach(path -> entries.add(new Entry(id, p.origin(), p.host(), path, Kind.PROTECT)));
            p.allow().forEach(path -> entries.add(new Entry(id, p.origin(), p.host(), path, Kind.ALLOW)));
        });
        return new RouteTable(version, entries);
    }

    /**
     * The entry covering {@code path} (raw, without query): the most specific; null when none does. A scan in
     * specificity order without allocation: a table holds the paths of the live events, tens, not thousands.
     */
    public Entry match(String path) {
        for (Entry entry : entries) {
            if (entry.path().matches(path)) {
                return entry;
            }
        }
        return null;
    }

    /** {@code path} is protected by {@code eventId}: the only return targets its waiting page accepts. */
    public boolean protects(EventId eventId, String path) {
        Entry entry = match(path);
        return entry != null && !entry.allowed() && entry.eventId().equals(eventId);
    }

    public String encode() {
        StringBuilder out = new StringBuilder(HEADER).append(version).append('\n');
        for (Entry e : entries) {
            out.append(e.eventId().value())
                    .append(' ')
                    .append(e.origin())
                    .append(' ')
                    .append(e.host() == null ? "-" : e.host())
                    .append(' ')
                    .append(e.path().pattern());
            if (e.allowed()) {
                out.append(' ').append(ALLOW_FIELD);
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** The table {@link #encode()} wrote; a malformed text throws {@link MalformedValueException}. */
    public static RouteTable decode(String text) {
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].startsWith(HEADER)) {
            throw new MalformedValueException("not a route table");
        }
        long version;
        try {
            version = Long.parseLong(lines[0].substring(HEADER.length()).trim());
        } catch (NumberFormatException ex) {
            throw new MalformedValueException("route table version is not a number");
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                continue;
            }
            String[] f = lines[i].split(" ");
            if (f.length != 4 && !(f.length == 5 && f[4].equals(ALLOW_FIELD))) {
                throw new MalformedValueException("route table line " + i + " has " + f.length + " fields");
            }
            entries.add(new Entry(
                    EventId.of(f[0]),
                    Protection.origin(f[1]),
                    f[2].equals("-") ? null : f[2],
                    ProtectedPath.of(f[3]),
                    f.length == 5 ? Kind.ALLOW : Kind.PROTECT));
        }
        return new RouteTable(version, entries);
    }
}
