package dev.waitroom.verifier;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Verifies the {@code Waitroom-Admission} header (docs/integration/admission-header.md) with the JDK alone: the
 * compact JWS, the pinned {@code alg} ({@code EdDSA}) and {@code typ}, the {@code kid} among the gateway's published
 * keys, the Ed25519 signature, then the claims against this origin ({@code aud}), the event (when configured), the
 * request's method and raw path, and the time within a clock skew. Thread-safe; one signature check per call.
 */
public final class AdmissionVerifier {

    /** The header's name. */
    public static final String HEADER = "Waitroom-Admission";

    static final String TYPE = "waitroom-admission+jwt";
    static final String ISSUER = "waitroom";
    static final long MAX_LIFETIME_SECONDS = 60;
    static final int MAX_LENGTH = 8192;
    private static final Set<String> HEADER_MEMBERS = Set.of("alg", "typ", "kid");
    private static final Set<String> SCOPES = Set.of("shopping", "order-status", "bypass");

    private final AdmissionKeys keys;
    private final String audience;
    private final String eventId;
    private final long skewSeconds;
    private final Clock clock;

    private AdmissionVerifier(Builder builder) {
        this.keys = Objects.requireNonNull(builder.keys, "keys");
        this.audience = Objects.requireNonNull(builder.audience, "audience");
        this.eventId = builder.eventId;
        this.skewSeconds = builder.clockSkew.toSeconds();
        this.clock = builder.clock;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Verifies {@code header} for a request of {@code method} on {@code rawPath} (as received: percent-encoding kept,
     * no query).
     *
     * @throws AdmissionRejectedException with the reason code of the specification
     */
    public VerifiedAdmission verify(String header, String method, String rawPath) throws AdmissionRejectedException {
        return verify(header, null, method, rawPath);
    }

    /** As {@link #verify(String, String, String)}, for an origin that knows the event from the request itself. */
    public VerifiedAdmission verify(String header, String expectedEventId, String method, String rawPath)
            throws AdmissionRejectedException {
        if (header == null || header.isEmpty()) {
            throw reject(RejectionReason.MISSING);
        }
        if (header.length() > MAX_LENGTH) {
            throw reject(RejectionReason.MALFORMED);
        }
        int first = header.indexOf('.');
        int second = first < 0 ? -1 : header.indexOf('.', first + 1);
        if (second < 0 || header.indexOf('.', second + 1) >= 0) {
            throw reject(RejectionReason.MALFORMED);
        }
        Map<String, Object> jose = json(header.substring(0, first));
        if (!(jose.get("alg") instanceof String alg)) {
            throw reject(RejectionReason.MALFORMED);
        }
        if (!"EdDSA".equals(alg)) {
            throw reject(RejectionReason.UNSUPPORTED_ALGORITHM);
        }
        if (!jose.keySet().equals(HEADER_MEMBERS) || !(jose.get("kid") instanceof String kid)) {
            throw reject(RejectionReason.MALFORMED);
        }
        if (!TYPE.equals(jose.get("typ"))) {
            throw reject(RejectionReason.WRONG_TYPE);
        }
        PublicKey key = keys.find(kid).orElseThrow(() -> reject(RejectionReason.UNKNOWN_KEY));
        byte[] signature = base64(header.substring(second + 1));
        if (!signatureMatches(key, header.substring(0, second), signature)) {
            throw reject(RejectionReason.BAD_SIGNATURE);
        }
        Map<String, Object> claims = json(header.substring(first + 1, second));
        String iss = text(claims, "iss");
        String aud = text(claims, "aud");
        String evt = text(claims, "evt");
        String sid = text(claims, "sid");
        String sub = text(claims, "sub");
        long gen = number(claims, "gen");
        String scp = text(claims, "scp");
        String htm = text(claims, "htm");
        String htp = text(claims, "htp");
        long iat = number(claims, "iat");
        long exp = number(claims, "exp");
        if (!SCOPES.contains(scp) || exp <= iat) {
            throw reject(RejectionReason.MALFORMED);
        }
        if (!ISSUER.equals(iss)) {
            throw reject(RejectionReason.WRONG_ISSUER);
        }
        if (!audience.equals(aud)) {
            throw reject(RejectionReason.WRONG_AUDIENCE);
        }
        String event = expectedEventId != null ? expectedEventId : eventId;
        if (event != null && !event.equals(evt)) {
            throw reject(RejectionReason.WRONG_EVENT);
        }
        if (!htm.equals(method)) {
            throw reject(RejectionReason.WRONG_METHOD);
        }
        if (!htp.equals(rawPath)) {
            throw reject(RejectionReason.WRONG_PATH);
        }
        if (exp - iat > MAX_LIFETIME_SECONDS) {
            throw reject(RejectionReason.LIFETIME_TOO_LONG);
        }
        long now = clock.instant().getEpochSecond();
        if (now > exp + skewSeconds) {
            throw reject(RejectionReason.EXPIRED);
        }
        if (iat > now + skewSeconds) {
            throw reject(RejectionReason.NOT_YET_VALID);
        }
        return new VerifiedAdmission(
                evt, sid, sub, gen, scp, htm, htp, Instant.ofEpochSecond(iat), Instant.ofEpochSecond(exp), kid);
    }

    private static boolean signatureMatches(PublicKey key, String signingInput, byte[] signature) {
        if (signature.length != 64) {
            return false;
        }
        try {
            Signature ed25519 = Signature.getInstance("Ed25519");
            ed25519.initVerify(key);
            ed25519.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return ed25519.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static Map<String, Object> json(String segment) throws AdmissionRejectedException {
        byte[] bytes = base64(segment);
        try {
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
            return Json.parseObject(text);
        } catch (CharacterCodingException | IllegalArgumentException e) {
            throw reject(RejectionReason.MALFORMED);
        }
    }

    /** Unpadded base64url only: a {@code =}, {@code +} or {@code /} is malformed. */
    private static byte[] base64(String segment) throws AdmissionRejectedException {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            boolean ok =
                    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                throw reject(RejectionReason.MALFORMED);
            }
        }
        try {
            return Base64.getUrlDecoder().decode(segment);
        } catch (IllegalArgumentException e) {
            throw reject(RejectionReason.MALFORMED);
        }
    }

    private static String text(Map<String, Object> claims, String name) throws AdmissionRejectedException {
        if (claims.get(name) instanceof String value && !value.isEmpty()) {
            return value;
        }
        throw reject(RejectionReason.MALFORMED);
    }

    private static long number(Map<String, Object> claims, String name) throws AdmissionRejectedException {
        if (claims.get(name) instanceof Long value && value >= 0) {
            return value;
        }
        throw reject(RejectionReason.MALFORMED);
    }

    private static AdmissionRejectedException reject(RejectionReason reason) {
        return new AdmissionRejectedException(reason);
    }

    /** Keys and audience are required; the event and a clock skew (default 5 s, at most 60 s) are optional. */
    public static final class Builder {

        private AdmissionKeys keys;
        private String audience;
        private String eventId;
        private Duration clockSkew = Duration.ofSeconds(5);
        private Clock clock = Clock.systemUTC();

        private Builder() {}

        public Builder keys(AdmissionKeys keys) {
            this.keys = Objects.requireNonNull(keys, "keys");
            return this;
        }

        /** This origin's name, the {@code aud} the gateway signs for it. */
        public Builder audience(String audience) {
            this.audience = requireText(audience, "audience");
            return this;
        }

        /** The one event this origin serves; leave unset and pass the event per request when it serves several. */
        public Builder eventId(String eventId) {
            this.eventId = eventId == null || eventId.isBlank() ? null : eventId;
            return this;
        }

        public Builder clockSkew(Duration clockSkew) {
            Objects.requireNonNull(clockSkew, "clockSkew");
            if (clockSkew.isNegative() || clockSkew.compareTo(Duration.ofSeconds(60)) > 0) {
                throw new IllegalArgumentException("clockSkew must be 0..60 s");
            }
            this.clockSkew = clockSkew;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public AdmissionVerifier build() {
            if (keys == null || audience == null) {
                throw new IllegalStateException("an AdmissionVerifier needs keys and an audience");
            }
            return new AdmissionVerifier(this);
        }

        private static String requireText(String value, String name) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(name + " must not be blank");
            }
            return value;
        }
    }
}
