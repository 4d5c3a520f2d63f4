package dev.waitroom.contract.routes;

import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What an event protects (docs/integration/gateway-in-front.md): requests to any of {@code paths} need the event's
 * admission and are forwarded, path and query unchanged, to {@code origin}, with {@code Host: host} when it is set (else
 * the origin's own host). Validates its own form; which ports and paths are Waitroom's own is the coordinator's check.
 *
 * <p>{@code allow} (docs/operating/allow-rules-and-passes.md): patterns inside {@code paths} that are never queued
 * (assets, {@code robots.txt}, health checks). Each lies inside one of {@code paths} and covers none of them whole, so
 * an allow rule can open a corner of the event's routes but never all of one ({@code /**} is refused): the
 * protection's own form, checked here, {@code bad-allow-rule}.
 */
public record Protection(URI origin, String host, List<ProtectedPath> paths, List<ProtectedPath> allow) {

    /** The most paths one event protects. */
    public static final int MAX_PATHS = 32;

    /** A Host header: a DNS name or IPv4 address, an optional port. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?");

    public Protection {
        if (origin == null) {
            throw badOrigin("an origin is required");
        }
        if (paths == null || paths.isEmpty() || paths.size() > MAX_PATHS) {
            throw new MalformedValueException(ProblemType.BAD_ROUTE, "1.." + MAX_PATHS + " paths are required");
        }
        paths = List.copyOf(paths);
        for (int i = 0; i < paths.size(); i++) {
            for (int j = i + 1; j < paths.size(); j++) {
                if (paths.get(i).equals(paths.get(j))) {
                    throw new MalformedValueException(ProblemType.BAD_ROUTE, "path listed twice: " + paths.get(i));
                }
            }
        }
        if (host != null && (host.isEmpty() || !HOST.matcher(host).matches())) {
            throw new MalformedValueException(ProblemType.BAD_ROUTE, "host is a host name with an optional port");
        }
        allow = allow == null ? List.of() : List.copyOf(allow);
        checkAllow(paths, allow);
    }

    /** This protection with {@code allow} as its allow rules in place of its own. */
    public Protection withAllow(List<ProtectedPath> allow) {
        return new Protection(origin, host, paths, allow);
    }

    private static void checkAllow(List<ProtectedPath> paths, List<ProtectedPath> allow) {
        if (allow.size() > MAX_PATHS) {
            throw badAllow("at most " + MAX_PATHS + " allow.paths");
        }
        for (int i = 0; i < allow.size(); i++) {
            ProtectedPath rule = allow.get(i);
            if (rule.prefix() && rule.base().isEmpty()) {
                throw badAllow("allow.paths /** would let every request past the queue; an allow rule names a part"
                        + " of protect.paths");
            }
            for (int j = i + 1; j < allow.size(); j++) {
                if (rule.equals(allow.get(j))) {
                    throw badAllow("allow.paths lists " + rule + " twice");
                }
            }
            for (ProtectedPath path : paths) {
                if (covers(rule, path)) {
                    throw badAllow("allow.paths " + rule + " would let every request to protect.paths " + path
                            + " past the queue; remove " + path + " from protect.paths instead");
                }
            }
            if (paths.stream().noneMatch(path -> covers(path, rule))) {
                throw badAllow("allow.paths " + rule + " is not inside any of protect.paths " + paths
                        + ": an allow rule opens a part of the event's own protected paths");
            }
        }
    }

    /** Every path {@code inner} matches, {@code outer} matches too. */
    static boolean covers(ProtectedPath outer, ProtectedPath inner) {
        if (!inner.prefix()) {
            return outer.matches(inner.pattern());
        }
        if (!outer.prefix()) {
            return false;
        }
        return inner.base().isEmpty() ? outer.base().isEmpty() : outer.matches(inner.base());
    }

    /**
     * An origin as configured: an absolute http or https URL naming a host, with no user info, query or fragment and
     * no path beyond {@code /} (the request's path is forwarded unchanged). Normalised to {@code scheme://host[:port]}.
     */
    public static URI origin(String value) {
        if (value == null || value.isBlank() || value.length() > 300) {
            throw badOrigin("origin is an http(s) URL of at most 300 characters");
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException ex) {
            throw badOrigin("origin is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw badOrigin("origin must be http or https");
        }
        if (uri.getRawUserInfo() != null) {
            throw badOrigin("origin must not carry user info");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw badOrigin("origin must not carry a query or fragment");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw badOrigin("origin must name a host");
        }
        String path = uri.getRawPath();
        if (path != null && !path.isEmpty() && !path.equals("/")) {
            throw badOrigin("origin has no path: the request's path is forwarded unchanged");
        }
        int port = uri.getPort();
        if (port == 0 || port > 65535) {
            throw badOrigin("origin port must be 1..65535");
        }
        return URI.create(scheme + "://" + uri.getRawAuthority().toLowerCase(Locale.ROOT));
    }

    /** The origin's port, the scheme's default when none is written. */
    public int originPort() {
        return origin.getPort() > 0 ? origin.getPort() : origin.getScheme().equals("https") ? 443 : 80;
    }

    /** The path patterns, as written. */
    public List<String> patterns() {
        return paths.stream().map(ProtectedPath::pattern).toList();
    }

    /** The allow patterns, as written. */
    public List<String> allowPatterns() {
        return allow.stream().map(ProtectedPath::pattern).toList();
    }

    private static MalformedValueException badAllow(String detail) {
        return new MalformedValueException(ProblemType.BAD_ALLOW_RULE, detail);
    }

    private static MalformedValueException badOrigin(String detail) {
        return new MalformedValueException(ProblemType.BAD_ORIGIN, detail);
    }
}
