package dev.waitroom.tokens;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The framing shared by queue tickets and visitor cookies:
 * {@code <prefix>.<kid>.<payload b64url>.<mac b64url>} where the MAC is HMAC-SHA256 over
 * {@code <prefix>.<kid>.<payload b64url>}, truncated to 16 bytes. The prefix names the format and
 * version, so a cookie can never be replayed as a ticket even if both were keyed alike.
 */
final class CompactMac {

    static final int MAC_BYTES = 16;
    private static final int MAC_CHARS = 22;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final String prefix;
    private final int maxLength;
    private final KeyMac signing;
    private final Map<String, KeyMac> accepted;

    private CompactMac(String prefix, int maxLength, KeyMac signing, Map<String, KeyMac> accepted) {
        this.prefix = prefix;
        this.maxLength = maxLength;
        this.signing = signing;
        this.accepted = accepted;
    }

    static CompactMac of(String prefix, int maxLength, HmacKey signing, HmacKey... alsoAccepted) {
        Objects.requireNonNull(signing, "signing");
        Objects.requireNonNull(alsoAccepted, "alsoAccepted");
        Map<String, HmacKey> byId = new LinkedHashMap<>();
        List<HmacKey> all = new ArrayList<>();
        all.add(signing);
        all.addAll(Arrays.asList(alsoAccepted));
        for (HmacKey key : all) {
            Objects.requireNonNull(key, "accepted key");
            HmacKey previous = byId.putIfAbsent(key.keyId(), key);
            if (previous != null && !previous.equals(key)) {
                throw new IllegalArgumentException("two different keys share the key id " + key.keyId());
            }
        }
        Map<String, KeyMac> macs = new HashMap<>();
        byId.forEach((id, key) -> macs.put(id, new KeyMac(key)));
        return new CompactMac(prefix, maxLength, macs.get(signing.keyId()), Map.copyOf(macs));
    }

    String seal(byte[] payload) {
        String signed = prefix + '.' + signing.keyId + '.' + ENCODER.encodeToString(payload);
        return signed + '.' + ENCODER.encodeToString(signing.mac(signed));
    }

    /** Checks framing, key and MAC; returns the authenticated payload bytes. */
    byte[] open(String token) {
        if (token == null || token.isEmpty()) {
            throw new TokenRejectedException(RejectionReason.MALFORMED, "empty");
        }
        if (token.length() > maxLength) {
            throw new TokenRejectedException(RejectionReason.TOO_LARGE, "longer than " + maxLength + " characters");
        }
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        int third = second < 0 ? -1 : token.indexOf('.', second + 1);
        if (third < 0 || token.indexOf('.', third + 1) >= 0) {
            throw new TokenRejectedException(RejectionReason.MALFORMED, "expected four dot-separated parts");
        }
        if (first != prefix.length() || !token.startsWith(prefix)) {
            throw new TokenRejectedException(RejectionReason.WRONG_TYPE, "not a " + prefix + " token");
        }
        String kid = token.substring(first + 1, second);
        if (!isKeyId(kid)) {
            throw new TokenRejectedException(RejectionReason.MALFORMED, "invalid key id");
        }
        KeyMac key = accepted.get(kid);
        if (key == null) {
            throw new TokenRejectedException(RejectionReason.UNKNOWN_KEY, "unknown key id");
        }
        String macText = token.substring(third + 1);
        if (macText.length() != MAC_CHARS || !isBase64Url(macText, 0, macText.length())) {
            throw new TokenRejectedException(RejectionReason.MALFORMED, "bad MAC encoding");
        }
        if (!isBase64Url(token, second + 1, third)) {
            throw new TokenRejectedException(RejectionReason.MALFORMED, "bad payload encoding");
        }
        byte[] presented = decodeCanonical(macText, "MAC");
        byte[] expected = key.mac(token.substring(0, third));
        if (!MessageDigest.isEqual(expected, presented)) {
            throw new TokenRejectedException(RejectionReason.BAD_SIGNATURE, "MAC mismatch");
        }
        return decodeCanonical(token.substring(second + 1, third), "payload");
    }

    /** Only the one canonical spelling is accepted, so a token has exactly one string form. */
    private static byte[] decodeCanonical(String text, String part) {
        try {
            byte[] bytes = DECODER.decode(text);
            if (!ENCODER.encodeToString(bytes).equals(text)) {
                throw new TokenRejectedException(RejectionReason.MALFORMED, "non-canonical " + part + " encoding");
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            throw new TokenRejectedException(RejectionReason.MALFORMED, "bad " + part + " encoding");
        }
    }

    static boolean isKeyId(String kid) {
        int length = kid.length();
        return length >= 1 && length <= 64 && isBase64Url(kid, 0, length);
    }

    static boolean isBase64Url(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            boolean ok =
                    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** One key with a per-thread initialised Mac: Mac.getInstance + init per call would dominate the cost. */
    private static final class KeyMac {
        private final String keyId;
        private final ThreadLocal<Mac> mac;

        KeyMac(HmacKey key) {
            this.keyId = key.keyId();
            SecretKeySpec spec = new SecretKeySpec(key.secretBytes(), "HmacSHA256");
            this.mac = ThreadLocal.withInitial(() -> {
                try {
                    Mac m = Mac.getInstance("HmacSHA256");
                    m.init(spec);
                    return m;
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException("HmacSHA256 unavailable", e);
                }
            });
            mac.get(); // fail at construction, not at first use
        }

        byte[] mac(String signed) {
            Mac m = mac.get();
            byte[] full = m.doFinal(signed.getBytes(StandardCharsets.US_ASCII));
            return Arrays.copyOf(full, MAC_BYTES);
        }
    }
}
