package dev.waitroom.tokens;

import static dev.waitroom.tokens.AdmissionTokenVerifierTests.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class ShopAssertionCodecTests {

    static final HmacKey KEY = HmacKey.of(random(32));
    static final HmacKey OTHER_KEY = HmacKey.of(random(32));
    static final ShopAssertionCodec CODEC = ShopAssertionCodec.of(KEY);
    static final Instant NOW = Instant.parse("2026-03-01T10:00:00.123Z");
    static final String PATH = "/events/summer-gig/shop/holds";
    static final ShopAssertion ASSERTION = ShopAssertion.forRequest(
            "summer-gig",
            "6f1c0b5e-8a53-4ad9-9d8e-3f0b1a2c4d5e",
            "AAAAAAAAAAAAAAAAAAAAAA",
            3,
            ShopAssertion.Scope.SHOPPING,
            "POST",
            PATH,
            NOW);
    static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    @Test
    void roundTripsForItsOwnRequestAndStaysCompact() {
        String signed = CODEC.sign(ASSERTION);

        assertThat(CODEC.verify(signed, "POST", PATH, NOW)).isEqualTo(ASSERTION);
        assertThat(ASSERTION.expiresAt()).isEqualTo(NOW.plus(ShopAssertion.LIFETIME));
        assertThat(signed)
                .startsWith("sa1." + KEY.keyId() + ".")
                .matches("[A-Za-z0-9_.-]+")
                .hasSizeLessThan(220);
        for (ShopAssertion.Scope scope : ShopAssertion.Scope.values()) {
            ShopAssertion other = ShopAssertion.forRequest("e", "s", "v", 0, scope, "GET", "/x", NOW);
            assertThat(CODEC.verify(CODEC.sign(other), "GET", "/x", NOW)).isEqualTo(other);
        }
    }

    @Test
    void isBoundToTheMethodAndTheExactRawPath() {
        String signed = CODEC.sign(ASSERTION);

        assertRejected(() -> CODEC.verify(signed, "GET", PATH, NOW), RejectionReason.WRONG_AUDIENCE);
        assertRejected(() -> CODEC.verify(signed, "post", PATH, NOW), RejectionReason.WRONG_AUDIENCE);
        assertRejected(
                () -> CODEC.verify(signed, "POST", "/events/summer-gig/shop/orders", NOW),
                RejectionReason.WRONG_AUDIENCE);
        assertRejected(
                () -> CODEC.verify(signed, "POST", "/events/other/shop/holds", NOW), RejectionReason.WRONG_AUDIENCE);
        // the same path spelt another way is another path: booking compares what it received
        assertRejected(
                () -> CODEC.verify(signed, "POST", "/events/summer-gig/shop/holds/", NOW),
                RejectionReason.WRONG_AUDIENCE);
        assertRejected(
                () -> CODEC.verify(signed, "POST", "//events/summer-gig/shop/holds", NOW),
                RejectionReason.WRONG_AUDIENCE);
        assertRejected(
                () -> CODEC.verify(signed, "POST", "/events/summer%2Dgig/shop/holds", NOW),
                RejectionReason.WRONG_AUDIENCE);
    }

    @Test
    void livesSecondsWithinTheClockSkewAndNoLonger() {
        String signed = CODEC.sign(ASSERTION);
        Instant expiry = ASSERTION.expiresAt();

        assertThat(CODEC.verify(signed, "POST", PATH, expiry)).isEqualTo(ASSERTION);
        assertThat(CODEC.verify(signed, "POST", PATH, expiry.plus(ShopAssertionCodec.CLOCK_SKEW)))
                .isEqualTo(ASSERTION);
        assertRejected(
                () -> CODEC.verify(
                        signed,
                        "POST",
                        PATH,
                        expiry.plus(ShopAssertionCodec.CLOCK_SKEW).plusMillis(1)),
                RejectionReason.EXPIRED);
        // a gateway clock a little ahead is tolerated
        assertThat(CODEC.verify(signed, "POST", PATH, NOW.minus(ShopAssertionCodec.CLOCK_SKEW)))
                .isEqualTo(ASSERTION);
    }

    @Test
    void anAssertionThatLivesLongerThanAnyTheGatewaySignsIsRefused() {
        ShopAssertion longLived = new ShopAssertion(
                "summer-gig", "s", "v", 1, ShopAssertion.Scope.SHOPPING, "POST", PATH, NOW.plus(Duration.ofHours(1)));

        assertRejected(() -> CODEC.verify(CODEC.sign(longLived), "POST", PATH, NOW), RejectionReason.NOT_YET_VALID);
    }

    @Test
    void acceptsThePreviousKeyDuringRotationAndSignsWithTheCurrentOne() {
        String old = ShopAssertionCodec.of(OTHER_KEY).sign(ASSERTION);
        ShopAssertionCodec rotated = ShopAssertionCodec.of(KEY, OTHER_KEY);

        assertThat(rotated.verify(old, "POST", PATH, NOW)).isEqualTo(ASSERTION);
        assertThat(rotated.sign(ASSERTION)).contains("." + KEY.keyId() + ".");
        assertRejected(() -> CODEC.verify(old, "POST", PATH, NOW), RejectionReason.UNKNOWN_KEY);
    }

    @Test
    void forgedTamperedAndForeignTokensAreRefused() {
        String signed = CODEC.sign(ASSERTION);
        String[] parts = signed.split("\\.");

        assertRejected(
                () -> CODEC.verify(forge(KEY.keyId(), parts[2], OTHER_KEY), "POST", PATH, NOW),
                RejectionReason.BAD_SIGNATURE);
        // another session's payload under this MAC
        ShopAssertion otherSession = ShopAssertion.forRequest(
                "summer-gig", "other", "AAAAAAAAAAAAAAAAAAAAAA", 3, ShopAssertion.Scope.SHOPPING, "POST", PATH, NOW);
        String otherPayload = CODEC.sign(otherSession).split("\\.")[2];
        assertRejected(
                () -> CODEC.verify(parts[0] + "." + parts[1] + "." + otherPayload + "." + parts[3], "POST", PATH, NOW),
                RejectionReason.BAD_SIGNATURE);
        // a queue ticket or a visitor cookie under the same key is not an assertion
        String ticket = QueueTicketCodec.of(KEY).encode(new QueueTicket("summer-gig", "x", 1, NOW));
        assertRejected(() -> CODEC.verify(ticket, "POST", PATH, NOW), RejectionReason.WRONG_TYPE);
        assertRejected(() -> CODEC.verify("", "POST", PATH, NOW), RejectionReason.MALFORMED);
        assertRejected(() -> CODEC.verify(null, "POST", PATH, NOW), RejectionReason.MALFORMED);
        assertRejected(() -> CODEC.verify("sa1.x.y", "POST", PATH, NOW), RejectionReason.MALFORMED);
        assertRejected(() -> CODEC.verify("x".repeat(8193), "POST", PATH, NOW), RejectionReason.TOO_LARGE);
        // authentic framing around a payload the codec never writes
        assertRejected(
                () -> CODEC.verify(
                        forge(KEY.keyId(), B64.encodeToString(new byte[] {9, 1, 65}), KEY), "POST", PATH, NOW),
                RejectionReason.MALFORMED);
        assertRejected(
                () -> CODEC.verify(forge(KEY.keyId(), B64.encodeToString(new byte[] {0}), KEY), "POST", PATH, NOW),
                RejectionReason.MALFORMED);
    }

    @Test
    void refusesValuesItCouldNotCarry() {
        assertThatThrownBy(() -> ShopAssertion.forRequest(
                        "e\u0000", "s", "v", 0, ShopAssertion.Scope.SHOPPING, "GET", "/x", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() ->
                        ShopAssertion.forRequest("e", "s", "v", 0, ShopAssertion.Scope.SHOPPING, "get", "/x", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () -> ShopAssertion.forRequest("e", "s", "v", 0, ShopAssertion.Scope.SHOPPING, "GET", "x", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShopAssertion.forRequest(
                        "e", "s", "v", 0, ShopAssertion.Scope.SHOPPING, "GET", "/" + "x".repeat(4096), NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () -> ShopAssertion.forRequest("e", "", "v", 0, ShopAssertion.Scope.SHOPPING, "GET", "/x", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() ->
                        ShopAssertion.forRequest("e", "s", "v", -1, ShopAssertion.Scope.SHOPPING, "GET", "/x", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        String longest = "/" + "x".repeat(4095);
        ShopAssertion fits =
                ShopAssertion.forRequest("e", "s", "v", 0, ShopAssertion.Scope.SHOPPING, "GET", longest, NOW);
        assertThat(CODEC.verify(CODEC.sign(fits), "GET", longest, NOW)).isEqualTo(fits);
    }

    static String forge(String kid, String payload, HmacKey key) {
        String signed = "sa1." + kid + "." + payload;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.secret(), "HmacSHA256"));
            byte[] full = mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + B64.encodeToString(Arrays.copyOf(full, 16));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] random(int length) {
        byte[] bytes = new byte[length];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
