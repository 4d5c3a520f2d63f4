package dev.waitroom.tokens;

import com.google.crypto.tink.subtle.Ed25519Sign;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Signs {@code Waitroom-Admission} statements (docs/integration/admission-header.md) as a compact JWS:
 * {@code base64url(header).base64url(claims).base64url(Ed25519 signature)}, header {@code
 * {"alg":"EdDSA","typ":"waitroom-admission+jwt","kid":"wa-..."}} (fixed, encoded once), claims in a fixed order.
 * Ed25519 signatures are deterministic: the same statement and key always give the same header.
 *
 * <p>Keys: the current key signs; the previous one (a rotation) is only published in {@link #jwks()}, so origins keep
 * accepting statements it signed until they expire. Thread-safe.
 */
public final class AdmissionHeaderSigner {

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final AdmissionHeaderKey signing;
    private final String encodedHeader;
    private final Ed25519Sign signer;
    private final String jwks;

    private AdmissionHeaderSigner(AdmissionHeaderKey signing, List<AdmissionHeaderKey> published) {
        this.signing = signing;
        this.encodedHeader = B64.encodeToString(
                ("{\"alg\":\"EdDSA\",\"typ\":\"" + AdmissionHeader.TYPE + "\",\"kid\":\"" + signing.keyId() + "\"}")
                        .getBytes(StandardCharsets.US_ASCII));
        try {
            this.signer = new Ed25519Sign(signing.seedBytes());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 unavailable", e);
        }
        StringBuilder keys = new StringBuilder("{\"keys\":[");
        for (int i = 0; i < published.size(); i++) {
            keys.append(i == 0 ? "" : ",").append(published.get(i).publicJwk());
        }
        this.jwks = keys.append("]}").toString();
    }

    /** Signs with {@code signing}; also publishes {@code previous} (null, or the same key, for none). */
    public static AdmissionHeaderSigner of(AdmissionHeaderKey signing, AdmissionHeaderKey previous) {
        Objects.requireNonNull(signing, "signing");
        Map<String, AdmissionHeaderKey> published = new LinkedHashMap<>();
        published.put(signing.keyId(), signing);
        if (previous != null) {
            published.putIfAbsent(previous.keyId(), previous);
        }
        return new AdmissionHeaderSigner(signing, new ArrayList<>(published.values()));
    }

    public String keyId() {
        return signing.keyId();
    }

    /** The public keys as a JWKS document ({@code application/jwk-set+json}): the current key first. */
    public String jwks() {
        return jwks;
    }

    /** The header value for {@code statement}: one Ed25519 signature over about 400 bytes. */
    public String sign(AdmissionHeader statement) {
        Objects.requireNonNull(statement, "statement");
        StringBuilder claims = new StringBuilder(200 + statement.path().length());
        claims.append("{\"iss\":\"").append(AdmissionHeader.ISSUER).append('"');
        string(claims.append(",\"aud\":"), statement.audience());
        string(claims.append(",\"evt\":"), statement.eventId());
        string(claims.append(",\"sid\":"), statement.sessionId());
        string(claims.append(",\"sub\":"), statement.visitor());
        claims.append(",\"gen\":").append(statement.saleGeneration());
        claims.append(",\"scp\":\"").append(statement.scope().wire()).append('"');
        string(claims.append(",\"htm\":"), statement.method());
        string(claims.append(",\"htp\":"), statement.path());
        claims.append(",\"iat\":").append(statement.issuedAt().getEpochSecond());
        claims.append(",\"exp\":").append(statement.expiresAt().getEpochSecond());
        claims.append('}');
        String signingInput =
                encodedHeader + '.' + B64.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8));
        byte[] signature;
        try {
            signature = signer.sign(signingInput.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
        return signingInput + '.' + B64.encodeToString(signature);
    }

    /** A JSON string: quotes, backslashes and (never validated in, but cheap to be sure of) control characters escaped. */
    private static void string(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7F) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
