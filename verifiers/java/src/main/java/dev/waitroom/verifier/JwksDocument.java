package dev.waitroom.verifier;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The Ed25519 keys of a JWKS document, as JDK public keys (Java 15+ has Ed25519 built in). */
final class JwksDocument {

    private final Map<String, PublicKey> keys;

    private JwksDocument(Map<String, PublicKey> keys) {
        this.keys = Map.copyOf(keys);
    }

    /** Keys other than OKP/Ed25519 signing keys are skipped; a document with no usable key is refused. */
    static JwksDocument parse(String json) {
        Object list = Json.parseObject(json).get("keys");
        if (!(list instanceof List<?> entries)) {
            throw new IllegalArgumentException("a JWKS needs a \"keys\" array");
        }
        Map<String, PublicKey> keys = new LinkedHashMap<>();
        for (Object entry : entries) {
            if (entry instanceof Map<?, ?> jwk
                    && "OKP".equals(jwk.get("kty"))
                    && "Ed25519".equals(jwk.get("crv"))
                    && (jwk.get("use") == null || "sig".equals(jwk.get("use")))
                    && jwk.get("kid") instanceof String kid
                    && jwk.get("x") instanceof String x) {
                keys.put(kid, publicKey(Base64.getUrlDecoder().decode(x)));
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("the JWKS has no Ed25519 key");
        }
        return new JwksDocument(keys);
    }

    Optional<PublicKey> find(String keyId) {
        return Optional.ofNullable(keys.get(keyId));
    }

    int size() {
        return keys.size();
    }

    /** RFC 8032 encoding: y little-endian, the sign of x in the top bit of the last byte. */
    static PublicKey publicKey(byte[] encoded) {
        if (encoded.length != 32) {
            throw new IllegalArgumentException("an Ed25519 public key is 32 bytes");
        }
        byte[] y = new byte[32];
        for (int i = 0; i < 32; i++) {
            y[i] = encoded[31 - i];
        }
        boolean xOdd = (y[0] & 0x80) != 0;
        y[0] &= 0x7F;
        try {
            return KeyFactory.getInstance("Ed25519")
                    .generatePublic(new EdECPublicKeySpec(
                            NamedParameterSpec.ED25519, new EdECPoint(xOdd, new BigInteger(1, y))));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 public key", e);
        }
    }
}
