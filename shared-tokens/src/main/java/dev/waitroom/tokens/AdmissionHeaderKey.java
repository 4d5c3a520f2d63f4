package dev.waitroom.tokens;

import com.google.crypto.tink.subtle.Ed25519Sign;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * One of the gateway's Ed25519 keys for the {@code Waitroom-Admission} header: a 32-byte seed from configuration
 * ({@code waitroom.security.admission-header-key}, base64), its public half, and a key id derived from the public half
 * ({@code wa-} and 16 base64url characters of its SHA-256), so every gateway configured alike publishes the same
 * {@code kid}. The seed is never printed.
 */
public final class AdmissionHeaderKey {

    /** The seed's length: an Ed25519 private key. */
    public static final int SEED_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String keyId;
    private final byte[] seed;
    private final byte[] publicKey;

    private AdmissionHeaderKey(byte[] seed) {
        if (seed.length != SEED_BYTES) {
            throw new IllegalArgumentException(
                    "an admission-header key is " + SEED_BYTES + " bytes (an Ed25519 seed), got " + seed.length);
        }
        this.seed = seed.clone();
        try {
            this.publicKey = Ed25519Sign.KeyPair.newKeyPairFromSeed(this.seed).getPublicKey();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 unavailable", e);
        }
        this.keyId = deriveKeyId(publicKey);
    }

    public static AdmissionHeaderKey ofSeed(byte[] seed) {
        return new AdmissionHeaderKey(Objects.requireNonNull(seed, "seed"));
    }

    /** Reads a base64 seed (standard or URL alphabet, padding optional), e.g. {@code WAITROOM_SECURITY_ADMISSIONHEADERKEY}. */
    public static AdmissionHeaderKey fromBase64(String base64) {
        return ofSeed(Base64Secret.decode(base64, "admission-header key"));
    }

    /** A fresh random key (tests, and the launcher's first start through {@link #toBase64()}). */
    public static AdmissionHeaderKey generate() {
        byte[] seed = new byte[SEED_BYTES];
        RANDOM.nextBytes(seed);
        return ofSeed(seed);
    }

    public String keyId() {
        return keyId;
    }

    /** The 32-byte public key (RFC 8032 encoding), the JWK's {@code x}. */
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The seed as standard base64, for writing a generated key into a secrets file. */
    public String toBase64() {
        return Base64.getEncoder().encodeToString(seed);
    }

    byte[] seedBytes() {
        return seed;
    }

    /** The public JWK of this key, members in a fixed order. */
    String publicJwk() {
        return "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"use\":\"sig\",\"alg\":\"EdDSA\",\"kid\":\"" + keyId
                + "\",\"x\":\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(publicKey) + "\"}";
    }

    private static String deriveKeyId(byte[] publicKey) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(publicKey);
            return "wa-"
                    + Base64.getUrlEncoder()
                            .withoutPadding()
                            .encodeToString(hash)
                            .substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AdmissionHeaderKey that && MessageDigest.isEqual(seed, that.seed);
    }

    @Override
    public int hashCode() {
        return keyId.hashCode();
    }

    @Override
    public String toString() {
        return "AdmissionHeaderKey[" + keyId + "]";
    }
}
