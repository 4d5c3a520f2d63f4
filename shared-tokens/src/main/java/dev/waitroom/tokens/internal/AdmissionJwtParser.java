package dev.waitroom.tokens.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jose.util.JSONObjectUtils;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.TokenRejectedException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The strict admission-token checks, in the order that never does work for an attacker before it
 * must: length, shape, header (alg pinned to EdDSA, only {@code alg}/{@code typ}/{@code kid}
 * allowed, exact {@code typ}, well-formed {@code kid}), key lookup, signature, then claims.
 * The header is parsed here, not by nimbus, so that {@code alg: none} or an HMAC algorithm never
 * reaches any code that could accept it. Not API: may change without notice.
 */
public final class AdmissionJwtParser {

    public static final int MAX_TOKEN_CHARS = 8 * 1024;
    public static final String TYPE = "wr-admission+jwt";
    public static final String ISSUER = "waitroom";
    public static final String AUDIENCE = "waitroom-shop";

    /** 9999-12-31T23:59:59Z: later times are nonsense and would overflow Instant arithmetic. */
    static final long MAX_EPOCH_SECOND = 253_402_300_799L;

    private static final Set<String> ALLOWED_HEADERS = Set.of("alg", "typ", "kid");
    private static final int SIGNATURE_CHARS = 86; // 64 bytes, unpadded base64url
    private static final JWSHeader EDDSA_HEADER = new JWSHeader(JWSAlgorithm.EdDSA);
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private AdmissionJwtParser() {}

    public interface KeyLookup {
        /** The verifier for a well-formed kid, or null when that kid is not published. */
        Ed25519Verifier find(String kid);
    }

    /**
     * Checks everything about the token except event and generation.
     *
     * @param now          the verifier's clock
     * @param skew         tolerated clock difference for {@code iat}/{@code nbf}
     * @param expiredGrace how long after {@code exp} the token is still accepted (skew, or more for order status)
     */
    public static AdmissionClaims parseAndVerify(
            String token, KeyLookup keys, Instant now, Duration skew, Duration expiredGrace) {
        return checkClaims(verifiedPayload(token, keys, TYPE), now, skew, expiredGrace);
    }

    /**
     * The payload of a compact JWS of type {@code type} whose EdDSA signature verifies with a published key, after
     * the same length, shape and header checks as an admission token; its claims are the caller's to check.
     */
    public static Map<String, Object> verifiedPayload(String token, KeyLookup keys, String type) {
        if (token == null || token.isEmpty()) {
            throw reject(RejectionReason.MALFORMED, "empty");
        }
        if (token.length() > MAX_TOKEN_CHARS) {
            throw reject(RejectionReason.TOO_LARGE, "longer than " + MAX_TOKEN_CHARS + " characters");
        }
        int firstDot = token.indexOf('.');
        int secondDot = firstDot < 0 ? -1 : token.indexOf('.', firstDot + 1);
        if (secondDot < 0 || token.indexOf('.', secondDot + 1) >= 0) {
            throw reject(RejectionReason.MALFORMED, "expected three dot-separated parts");
        }
        Map<String, Object> header = json(token, 0, firstDot, "header");
        String kid = checkHeader(header, type);

        if (!isBase64Url(token, firstDot + 1, secondDot) || !isBase64Url(token, secondDot + 1, token.length())) {
            throw reject(RejectionReason.MALFORMED, "bad base64url");
        }
        Ed25519Verifier verifier = keys.find(kid);
        if (verifier == null) {
            throw reject(RejectionReason.UNKNOWN_KEY, "kid not published");
        }
        if (token.length() - secondDot - 1 != SIGNATURE_CHARS) {
            throw reject(RejectionReason.BAD_SIGNATURE, "wrong signature length");
        }
        String signature = token.substring(secondDot + 1);
        if (!isCanonicalSignature(signature)) {
            throw reject(RejectionReason.MALFORMED, "non-canonical signature encoding");
        }
        byte[] signingInput = token.substring(0, secondDot).getBytes(StandardCharsets.US_ASCII);
        boolean valid;
        try {
            valid = verifier.verify(EDDSA_HEADER, signingInput, new Base64URL(signature));
        } catch (JOSEException | RuntimeException e) {
            valid = false;
        }
        if (!valid) {
            throw reject(RejectionReason.BAD_SIGNATURE, "signature mismatch");
        }
        return json(token, firstDot + 1, secondDot, "payload");
    }

    private static String checkHeader(Map<String, Object> header, String type) {
        Object alg = header.get("alg");
        if (!JWSAlgorithm.EdDSA.getName().equals(alg)) {
            throw reject(RejectionReason.UNSUPPORTED_ALGORITHM, "only EdDSA is accepted");
        }
        for (String name : header.keySet()) {
            if (!ALLOWED_HEADERS.contains(name)) {
                // jku, x5u, jwk, x5c, crit and anything else: refused, never followed
                throw reject(RejectionReason.FORBIDDEN_HEADER, "header parameter not allowed");
            }
        }
        if (!type.equals(header.get("typ"))) {
            throw reject(RejectionReason.WRONG_TYPE, "typ must be " + type);
        }
        Object kid = header.get("kid");
        if (kid == null) {
            throw reject(RejectionReason.MISSING_CLAIM, "kid header required");
        }
        if (!(kid instanceof String kidText)
                || !Ed25519Keys.KEY_ID.matcher(kidText).matches()) {
            throw reject(RejectionReason.MALFORMED, "kid must match [A-Za-z0-9_-]{1,64}");
        }
        return kidText;
    }

    private static AdmissionClaims checkClaims(
            Map<String, Object> claims, Instant now, Duration skew, Duration expiredGrace) {
        String issuer = text(claims, "iss");
        if (!ISSUER.equals(issuer)) {
            throw reject(RejectionReason.WRONG_ISSUER, "unexpected issuer");
        }
        checkAudience(claims.get("aud"));
        String eventId = text(claims, "evt");
        long generation = number(claims, "gen", Long.MAX_VALUE);
        String grantId = text(claims, "gid");
        String sessionId = text(claims, "sid");
        String visitor = text(claims, "sub");
        Instant issuedAt = Instant.ofEpochSecond(number(claims, "iat", MAX_EPOCH_SECOND));
        Instant expiresAt = Instant.ofEpochSecond(number(claims, "exp", MAX_EPOCH_SECOND));
        String tokenId = text(claims, "jti");
        if (!expiresAt.isAfter(issuedAt)) {
            throw reject(RejectionReason.MALFORMED, "exp not after iat");
        }
        Instant latestAcceptableStart = now.plus(skew);
        if (issuedAt.isAfter(latestAcceptableStart)) {
            throw reject(RejectionReason.NOT_YET_VALID, "issued in the future");
        }
        if (claims.containsKey("nbf")
                && Instant.ofEpochSecond(number(claims, "nbf", MAX_EPOCH_SECOND))
                        .isAfter(latestAcceptableStart)) {
            throw reject(RejectionReason.NOT_YET_VALID, "not before a future time");
        }
        if (!now.isBefore(expiresAt.plus(expiredGrace))) {
            throw reject(RejectionReason.EXPIRED, "expired");
        }
        return new AdmissionClaims(eventId, generation, grantId, sessionId, visitor, issuedAt, expiresAt, tokenId);
    }

    static void checkAudience(Object aud) {
        checkAudience(aud, AUDIENCE);
    }

    static void checkAudience(Object aud, String audience) {
        if (aud == null) {
            throw reject(RejectionReason.MISSING_CLAIM, "aud");
        }
        if (aud instanceof String single) {
            if (audience.equals(single)) {
                return;
            }
        } else if (aud instanceof List<?> many) {
            if (many.contains(audience)) {
                return;
            }
        } else {
            throw reject(RejectionReason.MALFORMED, "aud must be a string or an array");
        }
        throw reject(RejectionReason.WRONG_AUDIENCE, "unexpected audience");
    }

    static String text(Map<String, Object> claims, String name) {
        Object value = claims.get(name);
        if (value == null) {
            throw reject(RejectionReason.MISSING_CLAIM, name);
        }
        if (!(value instanceof String s) || s.isBlank()) {
            throw reject(RejectionReason.MALFORMED, name + " must be a non-blank string");
        }
        return s;
    }

    static long number(Map<String, Object> claims, String name, long max) {
        Object value = claims.get(name);
        if (value == null) {
            throw reject(RejectionReason.MISSING_CLAIM, name);
        }
        if (!(value instanceof Long l) || l < 0 || l > max) {
            throw reject(RejectionReason.MALFORMED, name + " must be an integer between 0 and " + max);
        }
        return l;
    }

    private static Map<String, Object> json(String token, int from, int to, String part) {
        if (from == to || !isBase64Url(token, from, to)) {
            throw reject(RejectionReason.MALFORMED, "bad base64url " + part);
        }
        try {
            String text = new String(DECODER.decode(token.substring(from, to)), StandardCharsets.UTF_8);
            return JSONObjectUtils.parse(text);
        } catch (IllegalArgumentException | ParseException e) {
            throw reject(RejectionReason.MALFORMED, part + " is not a JSON object");
        }
    }

    /** 86 characters carry 516 bits for 512: the last character's four spare bits must be zero. */
    private static boolean isCanonicalSignature(String signature) {
        char last = signature.charAt(SIGNATURE_CHARS - 1);
        int sextet;
        if (last >= 'A' && last <= 'Z') {
            sextet = last - 'A';
        } else if (last >= 'a' && last <= 'z') {
            sextet = last - 'a' + 26;
        } else if (last >= '0' && last <= '9') {
            sextet = last - '0' + 52;
        } else {
            sextet = last == '-' ? 62 : 63;
        }
        return (sextet & 0x0F) == 0;
    }

    private static boolean isBase64Url(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            boolean ok =
                    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    static TokenRejectedException reject(RejectionReason reason, String message) {
        return new TokenRejectedException(reason, message);
    }
}
