package dev.waitroom.tokens;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What the gateway asserts to booking about one shop request it forwards: it checked the admission token and that
 * the session is live (or, for order status, the token within its grace; or admitted the visitor under BYPASS), for
 * exactly this method and path, until {@code expiresAt} (a few seconds). Booking accepts a shop request only with a
 * valid one, so a token whose session has ended is worth nothing at booking even when booking is reached directly
 * (docs/security/booking.md).
 *
 * @param eventId        the event of the path; 1..255 UTF-8 bytes, no control characters
 * @param sessionId      the token's {@code sid} ({@code bypass-<visitor>} under BYPASS); 1..255 UTF-8 bytes
 * @param visitor        the token's {@code sub}, or the verified visitor under BYPASS; 1..255 UTF-8 bytes
 * @param saleGeneration the token's {@code gen} (the snapshot's under BYPASS), not negative
 * @param scope          what the gateway checked
 * @param method         the request method, {@code [A-Z]{1,16}}
 * @param path           the raw request path as forwarded (no query), starting with {@code /}, 1..4096 bytes
 * @param expiresAt      the end of its short life; the codec keeps it to the millisecond
 */
public record ShopAssertion(
        String eventId,
        String sessionId,
        String visitor,
        long saleGeneration,
        Scope scope,
        String method,
        String path,
        Instant expiresAt) {

    /** How long an assertion the gateway signs lives: it is made for one request, forwarded at once. */
    public static final Duration LIFETIME = Duration.ofSeconds(5);

    static final int MAX_ID_BYTES = 255;
    static final int MAX_PATH_BYTES = 4096;
    private static final int MAX_METHOD_CHARS = 16;

    public ShopAssertion {
        BoundedText.require(eventId, "eventId", MAX_ID_BYTES);
        BoundedText.require(sessionId, "sessionId", MAX_ID_BYTES);
        BoundedText.require(visitor, "visitor", MAX_ID_BYTES);
        if (saleGeneration < 0) {
            throw new IllegalArgumentException("saleGeneration must not be negative");
        }
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(method, "method");
        if (method.isEmpty()
                || method.length() > MAX_METHOD_CHARS
                || !method.chars().allMatch(c -> c >= 'A' && c <= 'Z')) {
            throw new IllegalArgumentException("method must be 1.." + MAX_METHOD_CHARS + " upper-case letters");
        }
        BoundedText.require(path, "path", MAX_PATH_BYTES);
        if (path.charAt(0) != '/') {
            throw new IllegalArgumentException("path must start with /");
        }
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** An assertion for a request the gateway forwards now, living {@link #LIFETIME}. */
    public static ShopAssertion forRequest(
            String eventId,
            String sessionId,
            String visitor,
            long saleGeneration,
            Scope scope,
            String method,
            String path,
            Instant now) {
        return new ShopAssertion(eventId, sessionId, visitor, saleGeneration, scope, method, path, now.plus(LIFETIME));
    }

    /** Whether this assertion was made for a request of this method and raw path. */
    public boolean isFor(String requestMethod, String requestPath) {
        return method.equals(requestMethod) && path.equals(requestPath);
    }

    /** What the gateway checked before it signed. Stable: the ordinal is on the wire. */
    public enum Scope {
        /** A verified, unexpired token of a session live in the registry: browse, hold, order. */
        SHOPPING,
        /** A token verified allowing expiry within the order-status grace, liveness not checked: read an order. */
        ORDER_STATUS,
        /** No token: the event is in BYPASS mode and the gateway verified the visitor cookie. */
        BYPASS
    }
}
