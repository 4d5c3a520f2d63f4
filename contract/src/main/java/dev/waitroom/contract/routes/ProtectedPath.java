package dev.waitroom.contract.routes;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One path pattern an event protects (docs/integration/gateway-in-front.md#path-patterns): an absolute path of plain
 * segments, exact ({@code /checkout/123}) or, ending in {@code /**}, a prefix ({@code /concerts/123/**} matches {@code
 * /concerts/123} and everything below it). Nothing else: no other wildcard, no empty, {@code .} or {@code ..} segment,
 * no percent-encoding, so the gateway, the coordinator and a reader of the config agree on what a pattern covers.
 */
public record ProtectedPath(String pattern) {

    /** The longest pattern, in characters. */
    public static final int MAX_LENGTH = 200;

    private static final String PREFIX_SUFFIX = "/**";

    /** RFC 3986 unreserved characters and a few sub-delimiters; never '%', '/', '?', '#', '\' or a space. */
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._~!$&'()+,=:@-]+");

    /**
     * Waitroom's own public paths outside {@code /events} (docs/reference/contracts.md): a pattern reaching into one of them is
     * refused, so an event can never take the ops API, the keys or the forward-auth endpoint away from the gateway.
     */
    private static final List<ProtectedPath> RESERVED = List.of(
            new ProtectedPath("/admin/**"),
            new ProtectedPath("/.well-known/**"),
            new ProtectedPath("/actuator/**"),
            new ProtectedPath("/forward-auth/**"),
            new ProtectedPath("/webhooks/**"),
            new ProtectedPath("/v3/**"),
            new ProtectedPath("/assets/**"),
            new ProtectedPath("/internal/**"),
            new ProtectedPath("/readyz"),
            new ProtectedPath("/events"));

    /** The segments under {@code /events/{eventId}} that the waiting room itself serves. */
    private static final List<String> RESERVED_UNDER_EVENT =
            List.of("queue", "status", "admission", "shopping-session", "shop-ui", "return-target");

    public ProtectedPath {
        if (pattern == null || pattern.isEmpty() || pattern.length() > MAX_LENGTH) {
            throw bad("a path is 1.." + MAX_LENGTH + " characters");
        }
        if (pattern.charAt(0) != '/') {
            throw bad("a path starts with '/': " + printable(pattern));
        }
        String base = pattern.endsWith(PREFIX_SUFFIX)
                ? pattern.substring(0, pattern.length() - PREFIX_SUFFIX.length())
                : pattern;
        if (!base.isEmpty() && !base.equals("/")) {
            String[] segments = base.substring(1).split("/", -1);
            for (String segment : segments) {
                if (segment.equals(".")
                        || segment.equals("..")
                        || !SEGMENT.matcher(segment).matches()) {
                    throw bad("a path is plain segments (no '//', '.', '..', '%', '*' except a final '/**'): "
                            + printable(pattern));
                }
            }
        } else if (base.equals("/") && pattern.endsWith(PREFIX_SUFFIX)) {
            throw bad("a path is plain segments (no '//'): " + printable(pattern));
        }
    }

    public static ProtectedPath of(String pattern) {
        return new ProtectedPath(pattern);
    }

    /** Ends in {@code /**}: the base path and everything below it. */
    public boolean prefix() {
        return pattern.endsWith(PREFIX_SUFFIX);
    }

    /** The path without {@code /**} ({@code ""} for {@code /**}). */
    public String base() {
        return prefix() ? pattern.substring(0, pattern.length() - PREFIX_SUFFIX.length()) : pattern;
    }

    /** This pattern covers the raw request path {@code path} (no query). */
    public boolean matches(String path) {
        String base = base();
        if (!prefix()) {
            return path.equals(base);
        }
        return base.isEmpty()
                || path.equals(base)
                || (path.startsWith(base) && path.length() > base.length() && path.charAt(base.length()) == '/');
    }

    /** Some path matches both patterns. */
    public boolean overlaps(ProtectedPath other) {
        if (!prefix() && !other.prefix()) {
            return pattern.equals(other.pattern);
        }
        if (!prefix()) {
            return other.matches(pattern);
        }
        if (!other.prefix()) {
            return matches(other.pattern);
        }
        return matches(other.base().isEmpty() ? "/" : other.base()) || other.matches(base().isEmpty() ? "/" : base());
    }

    /** How specific the pattern is: the gateway prefers the longest match, exact before prefix of the same length. */
    public int specificity() {
        return base().length() * 2 + (prefix() ? 0 : 1);
    }

    /**
     * The Waitroom path this pattern would take from the gateway, or null when it takes none. Under {@code /events}
     * only the event's own paths are allowed ({@code /events/{eventId}/...}), and not the waiting page or the queue,
     * admission and session calls the waiting room serves there.
     */
    public String reservedConflict(EventId owner) {
        for (ProtectedPath reserved : RESERVED) {
            if (overlaps(reserved)) {
                return reserved.pattern();
            }
        }
        if (!overlaps(new ProtectedPath("/events/**"))) {
            return null;
        }
        String own = "/events/" + owner.value();
        String base = base();
        if (!base.startsWith(own + "/")) {
            // the whole of /events, another event's paths or this event's waiting page
            return base.startsWith(own) ? own : "/events/**";
        }
        String first = base.substring(own.length() + 1).split("/", 2)[0];
        return RESERVED_UNDER_EVENT.contains(first) ? own + "/" + first + "/**" : null;
    }

    private static String printable(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints().limit(MAX_LENGTH).forEach(c -> {
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private static MalformedValueException bad(String detail) {
        return new MalformedValueException(ProblemType.BAD_ROUTE, detail);
    }

    @Override
    public String toString() {
        return pattern;
    }
}
