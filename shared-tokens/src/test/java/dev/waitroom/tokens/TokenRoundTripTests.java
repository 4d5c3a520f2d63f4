package dev.waitroom.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Seeded randomized round trips: every encoded value decodes to itself, and every single-character
 * change of an encoded value is rejected (never accepted as something else). Re-run a failure with
 * {@code -Dtokens.seed=<seed printed in the failure>}.
 */
class TokenRoundTripTests {

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
    private static final long SEED = Long.getLong("tokens.seed", System.nanoTime());

    @Test
    void queueTicketsRoundTripAndResistEveryMutation() {
        withSeed(SEED, random -> {
            HmacKey key = HmacKey.of(bytes(random, 32));
            QueueTicketCodec codec = QueueTicketCodec.of(key, HmacKey.of(bytes(random, 32)));
            for (int i = 0; i < 2_000; i++) {
                QueueTicket ticket = new QueueTicket(
                        text(random),
                        text(random),
                        orderKey(random),
                        Instant.ofEpochMilli(random.nextLong() % 100_000_000_000_000L));
                String encoded = codec.encode(ticket);
                assertThat(codec.decode(encoded)).isEqualTo(ticket);
                String mutated = mutate(random, encoded);
                assertThatThrownBy(() -> codec.decode(mutated))
                        .as("mutated %s", mutated)
                        .isInstanceOf(TokenRejectedException.class);
            }
            return null;
        });
    }

    @Test
    void visitorCookiesRoundTripAndResistEveryMutation() {
        withSeed(SEED + 1, random -> {
            VisitorCookieCodec codec = VisitorCookieCodec.of(HmacKey.of(bytes(random, 32)));
            for (int i = 0; i < 2_000; i++) {
                VisitorId visitor = new VisitorId(
                        java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(random, 16)));
                String encoded = codec.encode(visitor);
                assertThat(codec.decode(encoded)).isEqualTo(visitor);
                String mutated = mutate(random, encoded);
                assertThatThrownBy(() -> codec.decode(mutated))
                        .as("mutated %s", mutated)
                        .isInstanceOf(TokenRejectedException.class);
            }
            return null;
        });
    }

    @Test
    void admissionTokensRoundTripAndResistEveryMutation() {
        withSeed(SEED + 2, random -> {
            MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_700_000_000L + random.nextInt(100_000_000)));
            KeyRing ring = KeyRing.generate(clock);
            AdmissionTokenIssuer issuer = AdmissionTokenIssuer.of(ring);
            AdmissionTokenVerifier verifier = AdmissionTokenVerifier.of(ring::publicJwksJson, clock);
            for (int i = 0; i < 300; i++) {
                Instant issuedAt = clock.instant().minusSeconds(random.nextInt(20));
                AdmissionClaims claims = new AdmissionClaims(
                        text(random),
                        random.nextLong() & Long.MAX_VALUE,
                        text(random),
                        text(random),
                        text(random),
                        issuedAt,
                        issuedAt.plusSeconds(30 + random.nextInt(3600)),
                        text(random));
                String token = issuer.issue(claims);
                assertThat(verifier.verify(token, claims.eventId(), claims.saleGeneration()))
                        .isEqualTo(claims);
                String mutated = mutate(random, token);
                assertThatThrownBy(() -> verifier.verify(mutated, claims.eventId(), claims.saleGeneration()))
                        .as("mutated %s", mutated)
                        .isInstanceOf(TokenRejectedException.class);
            }
            return null;
        });
    }

    private static void withSeed(long seed, Function<Random, Void> body) {
        try {
            body.apply(new Random(seed));
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("failed with seed " + seed + " (re-run with -Dtokens.seed=" + seed + ")", e);
        }
    }

    private static String mutate(Random random, String value) {
        int at = random.nextInt(value.length());
        char replacement;
        do {
            replacement = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        } while (replacement == value.charAt(at));
        return value.substring(0, at) + replacement + value.substring(at + 1);
    }

    private static long orderKey(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> Long.MIN_VALUE + random.nextInt(3);
            case 1 -> Long.MAX_VALUE - random.nextInt(3);
            case 2 -> random.nextInt(1_000_000);
            default -> random.nextLong();
        };
    }

    /** Non-blank text of 1..40 code points, mixing ASCII, accented, CJK and astral characters, at most 128 bytes. */
    private static String text(Random random) {
        StringBuilder out = new StringBuilder();
        int length = 1 + random.nextInt(40);
        while (out.codePointCount(0, out.length()) < length) {
            int codePoint = switch (random.nextInt(4)) {
                case 0 -> 0x21 + random.nextInt(0x5E);
                case 1 -> 0xC0 + random.nextInt(0x100);
                case 2 -> 0x4E00 + random.nextInt(0x5000);
                default -> 0x1F600 + random.nextInt(0x50);
            };
            out.appendCodePoint(codePoint);
        }
        String text = out.toString();
        while (text.getBytes(StandardCharsets.UTF_8).length > QueueTicket.MAX_ID_BYTES) {
            text = text.substring(0, text.offsetByCodePoints(0, text.codePointCount(0, text.length()) - 1));
        }
        return text;
    }

    private static byte[] bytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
