package dev.waitroom.coordinator.keys;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals the key ring's private JSON for the database: AES-256-GCM (JDK) under the key-encryption key, a random 96-bit
 * nonce per seal, the format and key id as associated data. Sealed text: {@code wr-kek-v1.<kek id>.<nonce>.<ciphertext
 * and tag>} (base64url); the key id, a hash prefix of the key, says which key sealed it, so a wrong key is refused by
 * name before any decryption. Thread-safe.
 */
final class KeyEncryption {

    static final String FORMAT = "wr-kek-v1";

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final Kek current;
    private final Kek previous;

    KeyEncryption(KeyEncryptionProperties properties) {
        this.current = new Kek(properties.current());
        byte[] previousKey = properties.previous();
        this.previous = previousKey == null ? null : new Kek(previousKey);
    }

    /** The current key-encryption key's id (public: a hash prefix). */
    String keyId() {
        return current.id;
    }

    String seal(String plaintext) {
        return seal(plaintext, "");
    }

    /**
     * Seals {@code plaintext} bound to {@code context} (associated data after the format and key id; empty for the key
     * ring, whose sealed form predates contexts): text sealed for one context does not open for another, so a sealed
     * value copied into another row is refused.
     */
    String seal(String plaintext, String context) {
        Objects.requireNonNull(plaintext, "plaintext");
        Objects.requireNonNull(context, "context");
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = current.cipher(Cipher.ENCRYPT_MODE, nonce, context);
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            return FORMAT
                    + '.'
                    + current.id
                    + '.'
                    + ENCODER.encodeToString(nonce)
                    + '.'
                    + ENCODER.encodeToString(sealed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-256-GCM is not available", e);
        }
    }

    /**
     * Opens what {@link #seal} (here or with the previous key) produced.
     *
     * @throws IllegalStateException naming the key ids when neither configured key sealed it, or when it does not
     *                               authenticate (altered, or sealed with another key of the same id)
     */
    Opened open(String sealed) {
        return open(sealed, "", "signing keys");
    }

    /**
     * Opens what {@link #seal(String, String)} sealed for {@code context}; {@code what} names it in the errors.
     *
     * @throws IllegalStateException as {@link #open(String)}
     */
    Opened open(String sealed, String context, String what) {
        String[] parts = sealed == null ? new String[0] : sealed.split("\\.", -1);
        if (parts.length != 4 || !parts[0].equals(FORMAT)) {
            throw new IllegalStateException("The sealed " + what + " in the database are not in the " + FORMAT
                    + " format; the coordinator does not start on keys it cannot read");
        }
        String kekId = parts[1];
        Kek kek = current.id.equals(kekId) ? current : previous != null && previous.id.equals(kekId) ? previous : null;
        if (kek == null) {
            throw new IllegalStateException("The " + what + " in the database were sealed with key-encryption key "
                    + kekId + ", but " + KeyEncryptionProperties.PROPERTY + " is key " + current.id
                    + (previous == null ? "" : " and the previous key is " + previous.id)
                    + ". Configure the key they were sealed with (or set it as "
                    + KeyEncryptionProperties.PREVIOUS_PROPERTY + " to re-seal them with the new one).");
        }
        try {
            byte[] nonce = DECODER.decode(parts[2]);
            if (nonce.length != NONCE_BYTES) {
                throw new GeneralSecurityException("nonce length");
            }
            byte[] plaintext = kek.cipher(Cipher.DECRYPT_MODE, nonce, context).doFinal(DECODER.decode(parts[3]));
            return new Opened(new String(plaintext, StandardCharsets.UTF_8), kek == current);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("The " + what + " in the database do not decrypt with key-encryption key "
                    + kekId + ": the row was altered, or the key is not the one that sealed it");
        }
    }

    /** An opened ring and whether it was sealed with the current key (if not, seal it again). */
    record Opened(String plaintext, boolean sealedWithCurrentKey) {

        @Override
        public String toString() {
            return "Opened[plaintext=(hidden), sealedWithCurrentKey=" + sealedWithCurrentKey + "]";
        }
    }

    private static final class Kek {

        private final SecretKeySpec key;

        private final String id;

        Kek(byte[] bytes) {
            this.key = new SecretKeySpec(bytes, "AES");
            this.id = idOf(bytes);
            Arrays.fill(bytes, (byte) 0);
        }

        Cipher cipher(int mode, byte[] nonce, String context) throws GeneralSecurityException {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            String associated = FORMAT + '.' + id + (context.isEmpty() ? "" : '.' + context);
            cipher.updateAAD(associated.getBytes(StandardCharsets.UTF_8));
            return cipher;
        }

        private static String idOf(byte[] key) {
            try {
                MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
                // a label keeps the published id from being the bare hash of the key
                sha256.update("waitroom-key-encryption-key-id:".getBytes(StandardCharsets.US_ASCII));
                return ENCODER.encodeToString(Arrays.copyOf(sha256.digest(key), 6));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 unavailable", e);
            }
        }
    }
}
