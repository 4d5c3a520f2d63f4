package dev.waitroom.tokens;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The statement the gateway makes to an origin about one request it forwards, sent as the {@code Waitroom-Admission}
 * header (docs/integration/admission-header.md): this visitor holds a live admission to this event's sale generation,
 * checked for exactly this method and path, until {@code expiresAt}. A compact JWS any origin verifies with the
 * gateway's published Ed25519 keys.
 *
 * @param audience       {@code aud}: the origin it is for ({@code [A-Za-z0-9._:-]{1,64}})
 * @param eventId        {@code evt}; 1..255 UTF-8 bytes, no control characters
 * @param sessionId      {@code sid}: the shopping session ({@code bypass-<visitor>} under BYPASS)
 * @param visitor        {@code sub}: the visitor binding (a random id, not personal data)
 * @param saleGeneration {@code gen}, not negative
 * @param scope          {@code scp}: what the gateway checked
 * @param method         {@code htm}: the request method, {@code [A-Z]{1,16}}
 * @param path           {@code htp}: the raw request path as forwarded, no query, starting with {@code /}
 * @param issuedAt       {@code iat}, whole seconds
 * @param expiresAt      {@code exp}, whole seconds, after {@code issuedAt} by at most {@link #MAX_LIFETIME}
 */
public record AdmissionHeader(
        String audience,
        String eventId,
        String sessionId,
        String visitor,
        long saleGeneration,
        Scope scope,
        String method,
        String path,
        Instant issuedAt,
        Instant expiresAt) {

    /** The header's name on the wire. */
    public static final String NAME = "Waitroom-Admission";
    /** {@code iss} of every statement. */
    public static final String ISSUER = "waitroom";
    /** The pinned JOSE {@code typ}. */
    public static final String TYPE = "waitroom-admission+jwt";
    /** How long a statement the gateway signs lives. */
    public static final Duration LIFETIME = Duration.ofSeconds(30);
    /** What a verifier accepts at most between {@code iat} and {@code exp}. */
    public static final Duration MAX_LIFETIME = Duration.ofSeconds(60);

    static final int MAX_ID_BYTES = 255;
    static final int MAX_PATH_BYTES = 4096;
    private static final Pattern AUDIENCE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    private static final Pattern METHOD = Pattern.compile("[A-Z]{1,16}");

    public AdmissionHeader {
        Objects.requireNonNull(audience, "audience");
        if (!AUDIENCE.matcher(audience).matches()) {
            throw new IllegalArgumentException("audience must match " + AUDIENCE.pattern());
        }
        BoundedText.require(eventId, "eventId", MAX_ID_BYTES);
        BoundedText.require(sessionId, "sessionId", MAX_ID_BYTES);
        BoundedText.require(visitor, "visitor", MAX_ID_BYTES);
        if (saleGeneration < 0) {
            throw new IllegalArgumentException("saleGeneration must not be negative");
        }
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(method, "method");
        if (!METHOD.matcher(method).matches()) {
            throw new IllegalArgumentException("method must be 1..16 upper-case letters");
        }
        BoundedText.require(path, "path", MAX_PATH_BYTES);
        if (path.charAt(0) != '/' || path.indexOf('?') >= 0) {
            throw new IllegalArgumentException("path must start with / and carry no query");
        }
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (issuedAt.getNano() != 0 || expiresAt.getNano() != 0) {
            throw new IllegalArgumentException("issuedAt and expiresAt are whole seconds");
        }
        if (!expiresAt.isAfter(issuedAt) || expiresAt.isAfter(issuedAt.plus(MAX_LIFETIME))) {
            throw new IllegalArgumentException("expiresAt must be after issuedAt by at most " + MAX_LIFETIME);
        }
    }

    /** A statement for a request forwarded now, living {@link #LIFETIME} from the current second. */
    public static AdmissionHeader forRequest(
            String audience,
            String eventId,
            String sessionId,
            String visitor,
            long saleGeneration,
            Scope scope,
            String method,
            String path,
            Instant now) {
        Instant issuedAt = Instant.ofEpochSecond(now.getEpochSecond());
        return new AdmissionHeader(
                audience,
                eventId,
                sessionId,
                visitor,
                saleGeneration,
                scope,
                method,
                path,
                issuedAt,
                issuedAt.plus(LIFETIME));
    }

    /** What the gateway checked before it signed; {@link #wire()} is the {@code scp} value. */
    public enum Scope {
        /** A verified, unexpired admission token of a session live in the registry: browse, hold, order. */
        SHOPPING("shopping"),
        /** A token within the order-status grace, liveness not checked: read an order only. */
        ORDER_STATUS("order-status"),
        /** No token: the event is in BYPASS mode and the gateway verified the visitor cookie. */
        BYPASS("bypass");

        private final String wire;

        Scope(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }
}
