package dev.waitroom.queue.draw;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.QueueClient;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.queue.QueueServiceTest;
import dev.waitroom.testsupport.AllAtOnce;
import dev.waitroom.tokens.VisitorId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

@QueueServiceTest
class DrawTests {

    @Autowired
    DrawService draws;

    private final QueueClient client;

    DrawTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void drawOrdersThePresaleGroupByHmacOfTheReceiptsAndAnyoneCanRecomputeIt() throws Exception {
        String seed = randomSeed();
        String event = QueueClient.newEventId("draw");
        client.putEvent(
                event,
                "SCHEDULED",
                "\"commitment\":\"" + sha256Hex(HexFormat.of().parseHex(seed)) + "\"");
        Map<String, String> receipts = joinAll(event, 300);
        assertThat(client.putEvent(event, "OPEN", null)
                        .json()
                        .get("presaleCount")
                        .asLong())
                .isEqualTo(300);
        String late = VisitorId.random().value();
        Reply lateJoin = client.join(event, late);
        assertThat(lateJoin.ticket().orderKey()).as("behind the whole group").isEqualTo(301);
        assertThat(lateJoin.json().get("position").isNull())
                .as("unknown until the draw completes")
                .isTrue();
        assertThat(client.candidates(event, 10)).as("no offer before the draw").isEmpty();

        Reply drawn = client.draw(event, seed);
        assertThat(drawn.status()).isEqualTo(200);
        assertThat(drawn.json().get("presaleCount").asLong()).isEqualTo(300);
        assertThat(drawn.json().get("completed").asBoolean()).isTrue();

        Map<String, Long> keys = orderKeys(event, receipts);
        assertThat(keys).isEqualTo(independentlyRecomputed(seed, receipts));
        assertThat(client.status(event, late).ticket().orderKey()).isEqualTo(301);
        assertThat(client.status(event, late)
                        .json()
                        .get("position")
                        .get("aheadMin")
                        .asLong())
                .isEqualTo(300);

        JsonNode publicStatus =
                client.internal("GET", "/events/" + event + "/status", null).json();
        assertThat(publicStatus.get("seed").isNull())
                .as("not revealed by the queue's own draw: in regions another queue may still take pre-sale entries")
                .isTrue();
        client.putEvent(event, "OPEN", "\"seed\":\"" + seed + "\"");
        assertThat(client.internal("GET", "/events/" + event + "/status", null)
                        .json()
                        .get("seed")
                        .asString())
                .as("revealed when the coordinator reveals it")
                .isEqualTo(seed);
    }

    @Test
    void aSecondDrawIsANoOpAndAnotherSeedIsRefused() throws Exception {
        String seed = randomSeed();
        String event = client.newEvent("draw-twice", "SCHEDULED");
        Map<String, String> receipts = joinAll(event, 120);
        client.putEvent(event, "OPEN", null);
        client.draw(event, seed);
        Map<String, Long> first = orderKeys(event, receipts);
        String drawnAt = client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                .json()
                .get("drawCompletedAt")
                .asString();

        Reply again = client.draw(event, seed);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("presaleCount").asLong()).isEqualTo(120);
        assertThat(orderKeys(event, receipts)).isEqualTo(first);
        assertThat(client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                        .json()
                        .get("drawCompletedAt")
                        .asString())
                .isEqualTo(drawnAt);

        Reply other = client.draw(event, randomSeed());
        assertThat(other.status()).isEqualTo(409);
        assertThat(other.json().get("type").asString()).endsWith("/seed-mismatch");
        assertThat(orderKeys(event, receipts)).isEqualTo(first);
    }

    @Test
    void anInterruptedDrawRunAgainGivesTheSameOrder() throws Exception {
        String seed = randomSeed();
        String interrupted = QueueClient.newEventId("draw-interrupted");
        String whole = QueueClient.newEventId("draw-whole");
        for (String event : List.of(interrupted, whole)) {
            client.putEvent(event, "SCHEDULED", null);
        }
        Map<String, String> a = joinAll(interrupted, 350);
        Map<String, String> b = joinAll(whole, 350);
        client.putEvent(interrupted, "OPEN", null);
        client.putEvent(whole, "OPEN", null);

        // the chunk size is 100 in tests: two of four chunks are written, then the "crash"
        assertThat(draws.run(new EventId(interrupted), seed, 2).completed()).isFalse();
        assertThat(client.candidates(interrupted, 5)).as("still no offers").isEmpty();
        Reply offerTooEarly = client.internal(
                "POST",
                "/internal/events/" + interrupted + "/offers",
                "{\"offers\":[{\"entryId\":\"1\",\"grantId\":\"g1\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}]}");
        assertThat(offerTooEarly.status()).isEqualTo(409);

        assertThat(client.draw(interrupted, seed).status()).isEqualTo(200);
        assertThat(client.draw(whole, seed).status()).isEqualTo(200);

        Map<String, Long> byReceiptA = byReceipt(orderKeys(interrupted, a), a);
        Map<String, Long> byReceiptB = byReceipt(orderKeys(whole, b), b);
        assertThat(byReceiptA).as("same seed, same receipts, same order").isEqualTo(byReceiptB);
        assertThat(orderKeys(interrupted, a)).isEqualTo(independentlyRecomputed(seed, a));
        assertThat(client.counts(interrupted).get("waiting").asLong()).isEqualTo(350);
    }

    @Test
    void theDrawRefusesASeedThatDoesNotMatchTheCommitmentAndChangesNothing() throws Exception {
        String seed = randomSeed();
        String event = QueueClient.newEventId("draw-commit");
        String commitment = "\"commitment\":\"" + sha256Hex(HexFormat.of().parseHex(seed)) + "\"";
        client.putEvent(event, "SCHEDULED", commitment);
        Map<String, String> receipts = joinAll(event, 10);
        assertThat(client.draw(event, seed).status()).as("not before opening").isEqualTo(409);
        client.putEvent(event, "OPEN", commitment);

        Reply wrong = client.draw(event, randomSeed());
        assertThat(wrong.status()).isEqualTo(409);
        assertThat(wrong.header("Content-Type")).startsWith("application/problem+json");
        assertThat(client.candidates(event, 5)).isEmpty();
        assertThat(client.draw(event, "not-hex").status()).isEqualTo(400);
        assertThat(client.draw(event, seed).status()).isEqualTo(200);
        assertThat(orderKeys(event, receipts)).isEqualTo(independentlyRecomputed(seed, receipts));
    }

    @Test
    void joinsRacingTheOpeningAreEitherInTheGroupOrBehindItAndKeysStayGapFree() throws Exception {
        String seed = randomSeed();
        String event = client.newEvent("draw-race", "SCHEDULED");
        int n = 2_000;
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(32);
        List<java.util.concurrent.Future<String[]>> joins = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            joins.add(pool.submit(() -> {
                String v = VisitorId.random().value();
                Reply r = client.join(event, v);
                if (done.incrementAndGet() == n / 2) {
                    client.putEvent(event, "OPEN", null);
                }
                return new String[] {v, r.receipt()};
            }));
        }
        Map<String, String> receipts = new HashMap<>();
        for (var f : joins) {
            String[] vr = f.get();
            receipts.put(vr[0], vr[1]);
        }
        pool.shutdown();
        long presale = client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                .json()
                .get("presaleCount")
                .asLong();
        assertThat(presale).isBetween(1L, (long) n - 1);
        assertThat(client.draw(event, seed).status()).isEqualTo(200);

        Map<String, Long> keys = orderKeys(event, receipts);
        assertThat(keys.values())
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.LongStream.rangeClosed(1, n).boxed().toList());
        Map<String, String> group = new LinkedHashMap<>();
        receipts.forEach((visitor, receipt) -> {
            long sequence = Long.parseLong(receipt, 36);
            if (sequence <= presale) {
                group.put(visitor, receipt);
            } else {
                assertThat(keys.get(visitor)).as("FIFO behind the group").isEqualTo(sequence);
            }
        });
        Map<String, Long> groupKeys = new HashMap<>();
        group.keySet().forEach(v -> groupKeys.put(v, keys.get(v)));
        assertThat(groupKeys).isEqualTo(independentlyRecomputed(seed, group));
    }

    @Test
    void fifoPresaleOrderingKeepsJoinOrder() throws Exception {
        String event = QueueClient.newEventId("draw-fifo");
        client.putEvent(event, "SCHEDULED", "\"presaleOrdering\":\"FIFO\"");
        Map<String, String> receipts = joinAll(event, 30);
        client.putEvent(event, "OPEN", "\"presaleOrdering\":\"FIFO\"");
        client.draw(event, randomSeed());
        orderKeys(event, receipts)
                .forEach((visitor, key) -> assertThat(key).isEqualTo(Long.parseLong(receipts.get(visitor), 36)));
    }

    @Test
    void sameSeedGivesSameOrder() {
        byte[] seed = HexFormat.of().parseHex(randomSeed());
        assertThat(PresaleDraw.orderKeys(seed, 1000)).isEqualTo(PresaleDraw.orderKeys(seed.clone(), 1000));
        long[] keys = PresaleDraw.orderKeys(seed, 1000);
        assertThat(Arrays.stream(keys).sorted().toArray())
                .isEqualTo(java.util.stream.LongStream.rangeClosed(1, 1000).toArray());
        assertThat(PresaleDraw.orderKeys(HexFormat.of().parseHex(randomSeed()), 1000))
                .isNotEqualTo(keys);
    }

    /** visitor -> receipt */
    /** {@code n} new visitors join at once (the order a draw gives does not depend on the order they joined in). */
    private Map<String, String> joinAll(String event, int n) throws Exception {
        List<String[]> joined = AllAtOnce.each(n, i -> {
            String visitor = VisitorId.random().value();
            Reply r = client.join(event, visitor);
            assertThat(r.status()).isEqualTo(201);
            return new String[] {visitor, r.receipt()};
        });
        Map<String, String> receipts = new LinkedHashMap<>();
        joined.forEach(visitorAndReceipt -> receipts.put(visitorAndReceipt[0], visitorAndReceipt[1]));
        return receipts;
    }

    /** visitor -> order key, read from each visitor's fresh queue ticket, every visitor asking at once */
    private Map<String, Long> orderKeys(String event, Map<String, String> receipts) throws Exception {
        List<String> visitors = List.copyOf(receipts.keySet());
        List<Long> keys = AllAtOnce.each(
                visitors.size(),
                i -> client.status(event, visitors.get(i)).ticket().orderKey());
        Map<String, Long> byVisitor = new HashMap<>();
        for (int i = 0; i < visitors.size(); i++) {
            byVisitor.put(visitors.get(i), keys.get(i));
        }
        return byVisitor;
    }

    private static Map<String, Long> byReceipt(Map<String, Long> keys, Map<String, String> receipts) {
        Map<String, Long> out = new HashMap<>();
        keys.forEach((visitor, key) -> out.put(receipts.get(visitor), key));
        return out;
    }

    /** What a visitor can check from the revealed seed and the receipts, written apart from the service's code. */
    private static Map<String, Long> independentlyRecomputed(String seedHex, Map<String, String> receipts)
            throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(HexFormat.of().parseHex(seedHex), "HmacSHA256"));
        List<Map.Entry<String, String>> byMac = new ArrayList<>();
        for (Map.Entry<String, String> e : receipts.entrySet()) {
            String hex = HexFormat.of().formatHex(mac.doFinal(e.getValue().getBytes(StandardCharsets.UTF_8)));
            byMac.add(Map.entry(e.getKey(), hex));
        }
        byMac.sort(Map.Entry.comparingByValue());
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < byMac.size(); i++) {
            out.put(byMac.get(i).getKey(), i + 1L);
        }
        return out;
    }

    static String randomSeed() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static String sha256Hex(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
