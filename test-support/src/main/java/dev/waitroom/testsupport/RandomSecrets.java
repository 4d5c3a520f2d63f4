package dev.waitroom.testsupport;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Random secrets for a test JVM (an ops token, a ticket or webhook key), drawn from a {@link SecureRandom}, so nothing
 * reusable is ever written down in a test; a module's {@code TestSecrets} says which of its properties gets which. A
 * service's credential is {@link ServiceCredentials#generate}'s.
 */
public final class RandomSecrets {

    private static final SecureRandom RANDOM = new SecureRandom();

    private RandomSecrets() {}

    public static byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** {@code n} random bytes in standard Base64, as a key property is configured. */
    public static String base64(int n) {
        return Base64.getEncoder().encodeToString(bytes(n));
    }

    /** {@code n} random bytes in URL-safe Base64 without padding, as a bearer token is sent. */
    public static String base64Url(int n) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(n));
    }
}
