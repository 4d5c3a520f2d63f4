package dev.waitroom.booking.payments;

import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The payment provider's signature: header {@code X-Payment-Signature} ({@code Headers.PAYMENT_SIGNATURE}):
 * {@code sha256=<hex HMAC-SHA256(secret, raw body)>}.
 * Framework-free so the fake provider (and tests) sign exactly what the webhook verifies.
 */
public final class WebhookSignature {

    private static final String PREFIX = "sha256=";
    private static final int MAX_HEADER_LENGTH = PREFIX.length() + 64;

    private final SecretKeySpec key;

    private WebhookSignature(byte[] secret) {
        if (secret.length < 32) {
            throw new IllegalArgumentException("webhook secrets are at least 32 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    public static WebhookSignature of(byte[] secret) {
        return new WebhookSignature(secret);
    }

    public String sign(byte[] body) {
        return PREFIX + HexFormat.of().formatHex(mac(body));
    }

    /** Constant-time check of a presented header value against the body. */
    public boolean matches(String header, byte[] body) {
        if (header == null || header.length() != MAX_HEADER_LENGTH || !header.startsWith(PREFIX)) {
            return false;
        }
        byte[] presented;
        try {
            presented = HexFormat.of().parseHex(header.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(presented, mac(body));
    }

    private byte[] mac(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    @Override
    public String toString() {
        return "WebhookSignature[***]";
    }
}
