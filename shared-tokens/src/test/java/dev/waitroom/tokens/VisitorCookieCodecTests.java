package dev.waitroom.tokens;

import static dev.waitroom.tokens.AdmissionTokenVerifierTests.assertRejected;
import static dev.waitroom.tokens.QueueTicketCodecTests.random;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class VisitorCookieCodecTests {

    private final HmacKey key = HmacKey.of(random(32));
    private final VisitorCookieCodec codec = VisitorCookieCodec.of(key);

    @Test
    void roundTripsInACompactCookieSafeValue() {
        VisitorId visitor = VisitorId.random();

        String cookie = codec.encode(visitor);

        assertThat(codec.decode(cookie)).isEqualTo(visitor);
        assertThat(cookie)
                .isEqualTo("v1." + key.keyId() + "." + visitor.value() + "." + cookie.substring(cookie.length() - 22))
                .matches("[A-Za-z0-9_.-]+")
                .hasSize(3 + 9 + 23 + 22);
    }

    @Test
    void rejectsAnotherVisitorIdUnderTheOriginalMac() {
        String cookie = codec.encode(VisitorId.random());
        String swapped =
                cookie.replace(cookie.split("\\.")[2], VisitorId.random().value());

        assertRejected(() -> codec.decode(swapped), RejectionReason.BAD_SIGNATURE);
    }

    @Test
    void rejectsACookieSignedWithAnotherKeyOrOfAnotherKind() {
        HmacKey other = HmacKey.of(random(32));
        String foreign = VisitorCookieCodec.of(other).encode(VisitorId.random());
        String ticket = QueueTicketCodec.of(key).encode(new QueueTicket("e", "x", 1, Instant.EPOCH));
        String sameKidOtherSecret =
                VisitorCookieCodec.of(new HmacKey(key.keyId(), random(32))).encode(VisitorId.random());

        assertRejected(() -> codec.decode(foreign), RejectionReason.UNKNOWN_KEY);
        assertRejected(() -> codec.decode(sameKidOtherSecret), RejectionReason.BAD_SIGNATURE);
        assertRejected(() -> codec.decode(ticket), RejectionReason.WRONG_TYPE);
        assertRejected(() -> codec.decode("v1." + "x".repeat(300)), RejectionReason.TOO_LARGE);
        assertRejected(() -> codec.decode("garbage"), RejectionReason.MALFORMED);
        assertRejected(() -> codec.decode(null), RejectionReason.MALFORMED);
    }

    @Test
    void acceptsTheOldKeyDuringRotation() {
        HmacKey next = HmacKey.of(random(32));
        VisitorId visitor = VisitorId.random();
        String oldCookie = codec.encode(visitor);

        VisitorCookieCodec rotated = VisitorCookieCodec.of(next, key);

        assertThat(rotated.decode(oldCookie)).isEqualTo(visitor);
        assertThat(rotated.encode(visitor)).contains("." + next.keyId() + ".");
    }

    @Test
    void refusesTwoDifferentKeysWithOneKeyId() {
        HmacKey clash = new HmacKey(key.keyId(), random(32));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> VisitorCookieCodec.of(key, clash))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(VisitorCookieCodec.of(key, key).decode(codec.encode(VisitorId.random())))
                .isNotNull();
    }
}
