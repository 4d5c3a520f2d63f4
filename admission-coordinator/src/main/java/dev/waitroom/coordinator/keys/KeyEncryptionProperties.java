package dev.waitroom.coordinator.keys;

import java.util.Base64;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The key-encryption key that seals the signing keys at rest (docs/design/security/keys.md). No default: the launcher
 * generates one; without it the coordinator does not start. {@link #toString()} never prints a value.
 *
 * @param keyEncryptionKey         base64 of exactly 32 random bytes (AES-256), env {@code
 *                                 WAITROOM_SECURITY_KEYENCRYPTIONKEY}
 * @param keyEncryptionKeyPrevious optional, the key being rotated out: a ring sealed with it is opened and sealed
 *                                 again with the current key at start; env {@code
 *                                 WAITROOM_SECURITY_KEYENCRYPTIONKEYPREVIOUS}
 */
@ConfigurationProperties("waitroom.security")
public record KeyEncryptionProperties(String keyEncryptionKey, String keyEncryptionKeyPrevious) {

    static final String PROPERTY = "waitroom.security.key-encryption-key (WAITROOM_SECURITY_KEYENCRYPTIONKEY)";

    static final String PREVIOUS_PROPERTY =
            "waitroom.security.key-encryption-key-previous (WAITROOM_SECURITY_KEYENCRYPTIONKEYPREVIOUS)";

    static final int KEY_BYTES = 32;

    public KeyEncryptionProperties {
        if (keyEncryptionKey == null || keyEncryptionKey.isBlank()) {
            throw new IllegalArgumentException(PROPERTY + " must be set: base64 of " + KEY_BYTES
                    + " random bytes (the launcher generates it); it encrypts the signing keys at rest");
        }
        decode(PROPERTY, keyEncryptionKey);
        if (keyEncryptionKeyPrevious != null && keyEncryptionKeyPrevious.isBlank()) {
            keyEncryptionKeyPrevious = null;
        }
        if (keyEncryptionKeyPrevious != null) {
            decode(PREVIOUS_PROPERTY, keyEncryptionKeyPrevious);
        }
    }

    byte[] current() {
        return decode(PROPERTY, keyEncryptionKey);
    }

    /** The previous key's bytes, or null. */
    byte[] previous() {
        return keyEncryptionKeyPrevious == null ? null : decode(PREVIOUS_PROPERTY, keyEncryptionKeyPrevious);
    }

    private static byte[] decode(String name, String value) {
        String text = value.strip();
        byte[] bytes;
        try {
            bytes = text.indexOf('-') >= 0 || text.indexOf('_') >= 0
                    ? Base64.getUrlDecoder().decode(text)
                    : Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            // never echo the value: it is a secret
            throw new IllegalArgumentException(name + " is not valid base64");
        }
        if (bytes.length != KEY_BYTES) {
            throw new IllegalArgumentException(
                    name + " must be base64 of exactly " + KEY_BYTES + " bytes, got " + bytes.length);
        }
        return bytes;
    }

    @Override
    public String toString() {
        return "KeyEncryptionProperties[keyEncryptionKey=***, keyEncryptionKeyPrevious="
                + (keyEncryptionKeyPrevious == null ? "none" : "***") + "]";
    }
}
