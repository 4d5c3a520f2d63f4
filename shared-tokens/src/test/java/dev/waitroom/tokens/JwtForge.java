package dev.waitroom.tokens;

import com.google.crypto.tink.subtle.Ed25519Sign;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.util.JSONObjectUtils;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Builds admission tokens the way an attacker would: any header, any claims, signed with any key
 * (raw Tink Ed25519, not through the issuer), so every check of the verifier can be hit alone.
 */
final class JwtForge {

    static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    final Map<String, Object> header = new LinkedHashMap<>();
    final Map<String, Object> claims = new LinkedHashMap<>();

    /** A header and claims exactly like the issuer's, for {@code kid}, event {@code evt}, generation 3. */
    static JwtForge valid(String kid, Instant now) {
        JwtForge forge = new JwtForge();
        forge.header.put("alg", "EdDSA");
        forge.header.put("typ", "wr-admission+jwt");
        forge.header.put("kid", kid);
        forge.claims.put("iss", "waitroom");
        forge.claims.put("aud", "waitroom-shop");
        forge.claims.put("evt", "evt-1");
        forge.claims.put("gen", 3L);
        forge.claims.put("gid", "grant-1");
        forge.claims.put("sid", "session-1");
        forge.claims.put("sub", "visitor-1");
        forge.claims.put("iat", now.getEpochSecond());
        forge.claims.put("exp", now.getEpochSecond() + 600);
        forge.claims.put("jti", "token-1");
        return forge;
    }

    JwtForge header(String name, Object value) {
        if (value == null) {
            header.remove(name);
        } else {
            header.put(name, value);
        }
        return this;
    }

    JwtForge claim(String name, Object value) {
        if (value == null) {
            claims.remove(name);
        } else {
            claims.put(name, value);
        }
        return this;
    }

    String signingInput() {
        return encodeJson(header) + "." + encodeJson(claims);
    }

    String signedWith(OctetKeyPair key) {
        String input = signingInput();
        return input + "." + B64.encodeToString(ed25519(key, input.getBytes(StandardCharsets.US_ASCII)));
    }

    String hmacSignedWith(byte[] secret) {
        String input = signingInput();
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return input + "." + B64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    String unsigned() {
        return signingInput() + ".";
    }

    static byte[] ed25519(OctetKeyPair key, byte[] data) {
        try {
            return new Ed25519Sign(key.getDecodedD()).sign(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String encodeJson(Map<String, Object> json) {
        return B64.encodeToString(JSONObjectUtils.toJSONString(json).getBytes(StandardCharsets.UTF_8));
    }
}
