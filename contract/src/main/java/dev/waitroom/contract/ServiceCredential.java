package dev.waitroom.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * One service's own credential on calls to another ({@link Headers#INTERNAL}): {@code wrs_<service>_<secret>}, the
 * secret 43 characters of base64url (32 random bytes, no padding). The service in it says who claims to call; the
 * receiver holds only the SHA-256 of each caller's credential ({@link #sha256Hex()}), so a receiver's configuration
 * is worth nothing to someone who reads it. {@link #toString()} never shows the secret.
 *
 * @param service the calling service
 * @param value the whole credential as sent
 */
public record ServiceCredential(WaitroomService service, String value) {

    /** What every credential starts with, so a leaked one is easy to find in code, logs or a scanner's rules. */
    public static final String PREFIX = "wrs_";

    /** The length of the secret: base64url of 32 bytes without padding. */
    public static final int SECRET_LENGTH = 43;

    private static final int SECRET_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    public ServiceCredential {
        if (service == null || serviceOf(value) != service) {
            throw new IllegalArgumentException("a service credential is wrs_<service>_<" + SECRET_LENGTH
                    + " characters of base64url>, the service one of gateway, queue, coordinator, booking");
        }
    }

    /** A fresh credential for this service, from 32 bytes of {@link SecureRandom}. */
    public static ServiceCredential generate(WaitroomService service) {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        return new ServiceCredential(
                service,
                PREFIX + service.wireName() + "_"
                        + Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /**
     * The credential in this text, when it has the form (a known service, a secret of the right length and alphabet);
     * empty otherwise. Says nothing about whether it is valid: that takes the receiver's hash.
     */
    public static Optional<ServiceCredential> parse(String text) {
        WaitroomService service = serviceOf(text);
        return service == null ? Optional.empty() : Optional.of(new ServiceCredential(service, text));
    }

    /** The service a credential of the right form names; {@code null} for anything else. Allocates nothing. */
    public static WaitroomService serviceOf(String text) {
        if (text == null || !text.startsWith(PREFIX)) {
            return null;
        }
        int end = text.indexOf('_', PREFIX.length());
        if (end < 0 || text.length() - end - 1 != SECRET_LENGTH) {
            return null;
        }
        for (int i = end + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean base64url =
                    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!base64url) {
                return null;
            }
        }
        for (WaitroomService service : WaitroomService.values()) {
            String name = service.wireName();
            if (name.length() == end - PREFIX.length() && text.startsWith(name, PREFIX.length())) {
                return service;
            }
        }
        return null;
    }

    /** The lowercase hex SHA-256 of the credential's UTF-8 bytes: what the receiver is configured with. */
    public String sha256Hex() {
        return HexFormat.of().formatHex(sha256(value));
    }

    /** SHA-256 of a presented value's UTF-8 bytes. */
    public static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "ServiceCredential[" + service.wireName() + ", ****]";
    }
}
