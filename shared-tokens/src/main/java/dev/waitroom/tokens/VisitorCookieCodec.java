package dev.waitroom.tokens;

import java.util.Base64;
import java.util.Objects;

/**
 * Signs and checks the visitor identity cookie: {@code v1.<kid>.<visitor id>.<mac>}
 * (the 16 id bytes travel as the 22-character id itself; 57 characters in all with a derived key id, cookie-safe). Thread-safe.
 */
public final class VisitorCookieCodec {

    static final String PREFIX = "v1";
    /** Far above any cookie this codec writes; longer values are refused before any work. */
    static final int MAX_LENGTH = 256;

    private final CompactMac mac;

    private VisitorCookieCodec(CompactMac mac) {
        this.mac = mac;
    }

    /** Signs with {@code signing}; accepts cookies signed by it or by any of {@code alsoAccepted} (rotation). */
    public static VisitorCookieCodec of(HmacKey signing, HmacKey... alsoAccepted) {
        return new VisitorCookieCodec(CompactMac.of(PREFIX, MAX_LENGTH, signing, alsoAccepted));
    }

    public String encode(VisitorId visitorId) {
        Objects.requireNonNull(visitorId, "visitorId");
        return mac.seal(Base64.getUrlDecoder().decode(visitorId.value()));
    }

    public VisitorId decode(String cookieValue) throws TokenRejectedException {
        byte[] payload = mac.open(cookieValue);
        if (payload.length != 16) {
            throw new TokenRejectedException(RejectionReason.MALFORMED, "not a visitor id");
        }
        return new VisitorId(Base64.getUrlEncoder().withoutPadding().encodeToString(payload));
    }
}
