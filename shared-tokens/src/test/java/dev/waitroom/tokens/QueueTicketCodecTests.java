package dev.waitroom.tokens;

import static dev.waitroom.tokens.AdmissionTokenVerifierTests.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class QueueTicketCodecTests {

    static final HmacKey KEY = HmacKey.of(random(32));
    static final HmacKey OTHER_KEY = HmacKey.of(random(32));
    static final QueueTicketCodec CODEC = QueueTicketCodec.of(KEY);
    static final QueueTicket TICKET = new QueueTicket(
            "evt-1", "6f1c0b5e-8a53-4ad9-9d8e-3f0b1a2c4d5e", 1_234_567L, Instant.parse("2026-03-01T10:00:00.123Z"));
    static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    @Test
    void roundTripsAndStaysCompact() {
        String encoded = CODEC.encode(TICKET);

        assertThat(CODEC.decode(encoded)).isEqualTo(TICKET);
        assertThat(encoded)
                .startsWith("t1." + KEY.keyId() + ".")
                .matches("[A-Za-z0-9_.-]+")
                .hasSizeLessThan(110);
    }

    @Test
    void keepsIssuedAtToTheMillisecond() {
        QueueTicket precise = new QueueTicket("e", "x", 0, Instant.parse("2026-03-01T10:00:00.123456789Z"));

        assertThat(CODEC.decode(CODEC.encode(precise)).issuedAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00.123Z"));
    }

    @Test
    void acceptsTicketsOfAnOlderKeyDuringRotationAndSignsWithTheNewOne() {
        String old = QueueTicketCodec.of(OTHER_KEY).encode(TICKET);
        QueueTicketCodec rotated = QueueTicketCodec.of(KEY, OTHER_KEY);

        assertThat(rotated.decode(old)).isEqualTo(TICKET);
        assertThat(rotated.encode(TICKET)).contains("." + KEY.keyId() + ".");
        assertRejected(() -> CODEC.decode(old), RejectionReason.UNKNOWN_KEY);
    }

    static Stream<Arguments> hostileTickets() {
        String valid = CODEC.encode(TICKET);
        String[] parts = valid.split("\\.");
        List<Row> rows = List.of(
                new Row(
                        "MAC made with another key under our kid",
                        () -> forge(KEY.keyId(), parts[2], OTHER_KEY),
                        RejectionReason.BAD_SIGNATURE),
                new Row(
                        "MAC made with another key under its own kid",
                        () -> QueueTicketCodec.of(OTHER_KEY).encode(TICKET),
                        RejectionReason.UNKNOWN_KEY),
                new Row(
                        "tampered payload under the original MAC",
                        () -> parts[0] + "." + parts[1] + "."
                                + payloadOf(QueueTicketCodec.of(KEY)
                                        .encode(new QueueTicket("evt-1", TICKET.entryId(), 1, TICKET.issuedAt())))
                                + "." + parts[3],
                        RejectionReason.BAD_SIGNATURE),
                new Row("MAC truncated", () -> valid.substring(0, valid.length() - 1), RejectionReason.MALFORMED),
                new Row(
                        "MAC non-canonical",
                        () -> valid.substring(0, valid.length() - 1) + flipSpareBits(valid.charAt(valid.length() - 1)),
                        RejectionReason.MALFORMED),
                new Row(
                        "MAC zeroed",
                        () -> parts[0] + "." + parts[1] + "." + parts[2] + "." + "A".repeat(22),
                        RejectionReason.BAD_SIGNATURE),
                new Row(
                        "visitor cookie offered as a ticket",
                        () -> VisitorCookieCodec.of(KEY).encode(VisitorId.random()),
                        RejectionReason.WRONG_TYPE),
                new Row("future format version", () -> "t2" + valid.substring(2), RejectionReason.WRONG_TYPE),
                new Row("extra segment", () -> valid + ".x", RejectionReason.MALFORMED),
                new Row("missing segment", () -> parts[0] + "." + parts[1] + "." + parts[2], RejectionReason.MALFORMED),
                new Row(
                        "kid with path characters",
                        () -> parts[0] + ".../x." + parts[2] + "." + parts[3],
                        RejectionReason.MALFORMED),
                new Row(
                        "bad base64 payload",
                        () -> parts[0] + "." + parts[1] + ".%%%." + parts[3],
                        RejectionReason.MALFORMED),
                new Row("empty", () -> "", RejectionReason.MALFORMED),
                new Row("null", () -> null, RejectionReason.MALFORMED),
                new Row("oversized", () -> "t1." + "A".repeat(600), RejectionReason.TOO_LARGE),
                new Row(
                        "authentic but trailing bytes",
                        () -> forge(
                                KEY.keyId(),
                                B64.encodeToString(concat(Base64.getUrlDecoder().decode(parts[2]), new byte[] {1})),
                                KEY),
                        RejectionReason.MALFORMED),
                new Row(
                        "authentic but truncated payload",
                        () -> forge(KEY.keyId(), B64.encodeToString(new byte[] {5, 'e'}), KEY),
                        RejectionReason.MALFORMED),
                new Row(
                        "authentic but invalid UTF-8 id",
                        () -> forge(KEY.keyId(), B64.encodeToString(new byte[] {1, (byte) 0xC3, 1, 'x', 0, 0}), KEY),
                        RejectionReason.MALFORMED));
        return rows.stream().map(row -> Arguments.of(row.name(), row));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileTickets")
    void rejectsHostileTicketWithItsSpecificReason(String name, Row row) {
        String ticket = row.token().get();

        assertRejected(() -> CODEC.decode(ticket), row.reason());
    }

    static String forge(String kid, String payload, HmacKey key) {
        String signed = "t1." + kid + "." + payload;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.secret(), "HmacSHA256"));
            byte[] full = mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + B64.encodeToString(java.util.Arrays.copyOf(full, 16));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static char flipSpareBits(char last) {
        // the 16-byte MAC leaves 4 unused low bits in its last character: set one
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        return alphabet.charAt(alphabet.indexOf(last) | 1);
    }

    private static String payloadOf(String ticket) {
        return ticket.split("\\.")[2];
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    static byte[] random(int length) {
        byte[] bytes = new byte[length];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    record Row(String name, Supplier<String> token, RejectionReason reason) {
        @Override
        public String toString() {
            return name;
        }
    }
}
