package dev.waitroom.gateway.guard;

import org.springframework.http.HttpMethod;

/**
 * Which requests may carry a body and how the gateway treats it ({@link BodyLimitWebFilter}): decided from the method
 * and the normalised path alone, before any route is matched, so a request nobody would read costs nothing. A path
 * this does not know as Waitroom's is a shop origin's; streaming it is always safe.
 */
enum BodyRoutes {
    /** Takes no body: one announced is refused unread. */
    NONE,
    /** A Waitroom route that takes a body: read whole (within the limit) before it is forwarded. */
    READ,
    /** Forwarded to a shop origin: streamed, counted on the way. */
    STREAM;

    private static final String EVENTS = "/events/";

    static BodyRoutes of(HttpMethod method, String path) {
        if (HttpMethod.GET.equals(method)
                || HttpMethod.HEAD.equals(method)
                || HttpMethod.OPTIONS.equals(method)
                || HttpMethod.TRACE.equals(method)) {
            return NONE;
        }
        if (path.startsWith("/admin/") || path.equals("/webhooks/payments")) {
            return READ;
        }
        if (path.startsWith("/.well-known/") || path.startsWith("/actuator/") || path.startsWith("/assets/")) {
            return NONE;
        }
        if (!path.startsWith(EVENTS)) {
            return STREAM;
        }
        int eventEnd = path.indexOf('/', EVENTS.length());
        if (eventEnd < 0) {
            return NONE; // the waiting page
        }
        String rest = path.substring(eventEnd);
        return switch (rest) {
            case "/queue",
                    "/admission/claim",
                    "/admission/pass",
                    "/shopping-session/renew",
                    "/shopping-session/leave",
                    "/code" -> READ;
            case "/signals/purchase-completed", "/signals/sold-out", "/signals/session-release" -> READ;
            case "/", "/status", "/queue/status", "/queue/challenge", "/shop-ui", "/return-target" -> NONE;
            default -> STREAM;
        };
    }
}
