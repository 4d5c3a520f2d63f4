package dev.waitroom.tokens.internal;

import com.google.crypto.tink.subtle.Ed25519Sign;
import com.google.crypto.tink.subtle.Ed25519Verify;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.text.ParseException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Nimbus wiring for Ed25519 keys. Not API: may change without notice.
 */
public final class Ed25519Keys {

    /** What a {@code kid} may look like anywhere in Waitroom: never a path, never SQL. */
    public static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private static final SecureRandom RANDOM = new SecureRandom();

    private Ed25519Keys() {}

    /** A fresh Ed25519 key pair with a random 16-character key id. */
    public static OctetKeyPair generate() {
        byte[] id = new byte[12];
        RANDOM.nextBytes(id);
        String kid = "ed-" + Base64.getUrlEncoder().withoutPadding().encodeToString(id);
        try {
            return new OctetKeyPairGenerator(Curve.Ed25519)
                    .keyID(kid)
                    .keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.EdDSA)
                    .generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot generate an Ed25519 key (is tink on the classpath?)", e);
        }
    }

    /** Parses a private Ed25519 JWK as stored in the key ring JSON. */
    public static OctetKeyPair parsePrivate(Map<String, Object> json) throws ParseException {
        if (json == null) {
            throw new ParseException("key material missing", 0);
        }
        JWK jwk = JWK.parse(json);
        if (!(jwk instanceof OctetKeyPair okp) || !Curve.Ed25519.equals(okp.getCurve())) {
            throw new ParseException("not an Ed25519 key", 0);
        }
        if (!okp.isPrivate()) {
            throw new ParseException("private key material missing", 0);
        }
        if (okp.getKeyID() == null || !KEY_ID.matcher(okp.getKeyID()).matches()) {
            throw new ParseException("invalid kid", 0);
        }
        if (!signsForItsPublicHalf(okp)) {
            throw new ParseException("private and public halves do not match", 0);
        }
        return okp;
    }

    /** A stored key whose d and x disagree would sign tokens nobody can verify: refuse it at load. */
    private static boolean signsForItsPublicHalf(OctetKeyPair okp) {
        try {
            byte[] probe = okp.getKeyID().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            byte[] signature = new Ed25519Sign(okp.getDecodedD()).sign(probe);
            new Ed25519Verify(okp.getDecodedX()).verify(signature, probe);
            return true;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The public JWKS JSON of the given keys: no private parts. */
    public static String publicJwks(List<OctetKeyPair> keys) {
        List<JWK> publicKeys = keys.stream().map(k -> (JWK) k.toPublicJWK()).toList();
        return new JWKSet(publicKeys).toString(true);
    }
}
