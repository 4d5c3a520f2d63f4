package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.tokens.VisitorId;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

@QueueServiceTest
class AdmissionTests {

    private final QueueClient client;

    AdmissionTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void offersFollowThePolicyOrderExactly() {
        long seedForThisRun = new Random().nextLong();
        Random random = new Random(seedForThisRun);
        String event = client.newEvent("policy-order", "SCHEDULED");
        Map<String, String> visitorByReceipt = new HashMap<>();
        List<String> visitors = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String v = VisitorId.random().value();
            visitors.add(v);
            visitorByReceipt.put(client.join(event, v).receipt(), v);
        }
        client.putEvent(event, "OPEN", null);
        for (int i = 0; i < 40; i++) {
            String v = VisitorId.random().value();
            visitors.add(v);
            visitorByReceipt.put(client.join(event, v).receipt(), v);
        }
        List<String> leavers = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            String v = visitors.get(random.nextInt(visitors.size()));
            if (!leavers.contains(v)) {
                leavers.add(v);
                client.leave(event, v);
            }
        }
        client.draw(event, seed());

        Map<String, Long> keyOf = new HashMap<>();
        visitors.stream()
                .filter(v -> !leavers.contains(v))
                .forEach(v -> keyOf.put(v, client.status(event, v).ticket().orderKey()));
        List<Long> expected = keyOf.values().stream().sorted().toList();

        List<Long> offeredKeys = new ArrayList<>();
        int batch = 0;
        while (true) {
            List<JsonNode> next = client.candidates(event, 7 + (batch++ % 5));
            if (next.isEmpty()) {
                break;
            }
            for (JsonNode c : next) {
                assertThat(c.get("visitor").asString())
                        .isEqualTo(visitorByReceipt.get(c.get("entryId").asString()));
                assertThat(keyOf.get(c.get("visitor").asString()))
                        .isEqualTo(c.get("orderKey").asLong());
            }
            String offers = next.stream()
                    .map(c -> "{\"entryId\":\"" + c.get("entryId").asString() + "\",\"grantId\":\"g-"
                            + c.get("entryId").asString() + "\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}")
                    .collect(Collectors.joining(",", "{\"offers\":[", "]}"));
            JsonNode results = client.internal("POST", "/internal/events/" + event + "/offers", offers)
                    .json()
                    .get("results");
            results.forEach(r -> assertThat(r.get("state").asString()).isEqualTo("OFFERED"));
            next.forEach(c -> offeredKeys.add(c.get("orderKey").asLong()));
        }
        assertThat(offeredKeys).as("seed %s", seedForThisRun).isEqualTo(expected);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("waiting").asLong()).isZero();
        assertThat(counts.get("offered").asLong()).isEqualTo(expected.size());
        assertThat(client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                        .json()
                        .get("offerWatermark")
                        .asLong())
                .isEqualTo(expected.get(expected.size() - 1));
    }

    @Test
    void pollingAThousandTimesChangesNoOrderKey() throws Exception {
        String event = client.newEvent("polling", "OPEN");
        List<String> visitors = new ArrayList<>();
        Map<String, Long> before = new HashMap<>();
        for (int i = 0; i < 50; i++) {
            String v = VisitorId.random().value();
            visitors.add(v);
            before.put(v, client.join(event, v).ticket().orderKey());
        }
        List<JsonNode> candidatesBefore = client.candidates(event, 50);

        List<Reply> polls = JoinTests.concurrently(1000, i -> client.status(event, visitors.get(i % visitors.size())));

        assertThat(polls).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        for (Reply r : polls) {
            String visitor = visitors.get(polls.indexOf(r) % visitors.size());
            assertThat(r.ticket().orderKey()).isEqualTo(before.get(visitor));
        }
        assertThat(client.candidates(event, 50)).isEqualTo(candidatesBefore);
        assertThat(client.counts(event).get("joins").asLong()).isEqualTo(50);
    }

    @Test
    void entriesMoveAlongTheirLifecycleIdempotentlyAndOnlyForTheirGrant() {
        String event = client.newEvent("lifecycle", "OPEN");
        String a = VisitorId.random().value();
        String b = VisitorId.random().value();
        String entryA = client.join(event, a).receipt();
        client.join(event, b);

        assertThat(client.offer(event, entryA, "grant-a").get("state").asString())
                .isEqualTo("OFFERED");
        JsonNode repeat = client.offer(event, entryA, "grant-a");
        assertThat(repeat.get("state").asString()).isEqualTo("OFFERED");
        assertThat(repeat.get("applied").asBoolean()).isTrue();
        JsonNode other = client.offer(event, entryA, "grant-x");
        assertThat(other.get("applied").asBoolean()).as("held by another grant").isFalse();

        JsonNode status = client.status(event, a).json();
        assertThat(status.get("state").asString()).isEqualTo("OFFERED");
        assertThat(Instant.parse(status.get("offer").get("expiresAt").asString()))
                .isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(status.get("pollAfterSeconds").asInt()).isEqualTo(2);
        assertThat(client.leave(event, a).status())
                .as("an offered entry cannot leave")
                .isEqualTo(409);

        Reply wrongGrant = client.transition(event, entryA, "ACTIVE", "grant-x");
        assertThat(wrongGrant.status()).isEqualTo(409);
        assertThat(wrongGrant.json().get("type").asString()).endsWith("/grant-mismatch");
        assertThat(client.transition(event, entryA, "COMPLETED", "grant-a").status())
                .as("not from OFFERED")
                .isEqualTo(409);
        assertThat(client.transition(event, entryA, "ACTIVE", "grant-a")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("ACTIVE");
        assertThat(client.transition(event, entryA, "ACTIVE", "grant-a")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("ACTIVE");
        assertThat(client.transition(event, entryA, "COMPLETED", "grant-a")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("COMPLETED");
        assertThat(client.transition(event, entryA, "COMPLETED", "grant-a")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("COMPLETED");
        assertThat(client.transition(event, entryA, "EXPIRED", "grant-a").status())
                .isEqualTo(409);

        JsonNode counts = client.counts(event);
        assertThat(counts.get("completed").asLong()).isEqualTo(1);
        assertThat(counts.get("active").asLong()).isZero();
        assertThat(counts.get("offered").asLong()).isZero();
        assertThat(counts.get("waiting").asLong()).isEqualTo(1);
        Reply again = client.join(event, a);
        assertThat(again.status())
                .as("after a purchase under afterPurchase RELEASE (the default) a join is a new entry")
                .isEqualTo(201);
        assertThat(again.receipt()).isNotEqualTo(entryA);
        assertThat(client.counts(event).get("completed").asLong())
                .as("the completed entry is kept")
                .isEqualTo(1);
    }

    @Test
    void anUnclaimedOfferGoesToTheBackOnceThenExpires() {
        String event = client.newEvent("requeue-once", "OPEN");
        String a = VisitorId.random().value();
        String entryA = client.join(event, a).receipt();
        for (int i = 0; i < 3; i++) {
            client.join(event, VisitorId.random().value());
        }
        client.offer(event, entryA, "g1");
        assertThat(client.transition(event, entryA, "OFFER_EXPIRED", "g1")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("WAITING");
        assertThat(client.transition(event, entryA, "OFFER_EXPIRED", "g1")
                        .json()
                        .get("state")
                        .asString())
                .as("repeat changes nothing")
                .isEqualTo("WAITING");
        Reply back = client.status(event, a);
        assertThat(back.ticket().orderKey()).as("behind everyone waiting").isEqualTo(5);
        assertThat(back.receipt()).isEqualTo(entryA);
        assertThat(back.json().get("position").get("aheadMin").asLong()).isEqualTo(3);
        List<JsonNode> next = client.candidates(event, 10);
        assertThat(next.get(next.size() - 1).get("entryId").asString()).isEqualTo(entryA);

        client.offer(event, entryA, "g2");
        assertThat(client.transition(event, entryA, "OFFER_EXPIRED", "g1").status())
                .as("old grant")
                .isEqualTo(409);
        assertThat(client.transition(event, entryA, "OFFER_EXPIRED", "g2")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("EXPIRED");
        assertThat(client.transition(event, entryA, "OFFER_EXPIRED", "g2")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("EXPIRED");
        JsonNode counts = client.counts(event);
        assertThat(counts.get("expired").asLong()).isEqualTo(1);
        assertThat(counts.get("waiting").asLong()).isEqualTo(3);
        assertThat(counts.get("abandoned").asLong()).isEqualTo(2);
    }

    @Test
    void aWithdrawnOfferWaitsAgainInItsOwnPlaceOnlyForItsGrant() {
        String event = client.newEvent("withdrawn", "OPEN");
        String a = VisitorId.random().value();
        String b = VisitorId.random().value();
        String entryA = client.join(event, a).receipt();
        String entryB = client.join(event, b).receipt();
        for (int i = 0; i < 2; i++) {
            client.join(event, VisitorId.random().value());
        }
        long keyA = client.status(event, a).ticket().orderKey();
        client.offer(event, entryA, "g1");
        client.offer(event, entryB, "g2");

        Reply wrongGrant = client.transition(event, entryA, "OFFER_WITHDRAWN", "g2");
        assertThat(wrongGrant.status()).isEqualTo(409);
        assertThat(wrongGrant.json().get("type").asString()).endsWith("/grant-mismatch");
        assertThat(client.status(event, a).json().get("state").asString())
                .as("nothing changed")
                .isEqualTo("OFFERED");
        assertThat(client.transition(event, entryA, "OFFER_WITHDRAWN", "g1")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("WAITING");
        assertThat(client.transition(event, entryA, "OFFER_WITHDRAWN", "g1")
                        .json()
                        .get("state")
                        .asString())
                .as("repeat changes nothing")
                .isEqualTo("WAITING");

        Reply back = client.status(event, a);
        assertThat(back.json().get("state").asString()).isEqualTo("WAITING");
        assertThat(back.receipt()).isEqualTo(entryA);
        assertThat(back.ticket().orderKey()).as("the same place").isEqualTo(keyA);
        assertThat(back.json().get("position").get("aheadMin").asLong()).isZero();
        List<JsonNode> next = client.candidates(event, 10);
        assertThat(next).hasSize(3);
        assertThat(next.get(0).get("entryId").asString()).as("first again").isEqualTo(entryA);
        assertThat(next.get(0).get("orderKey").asLong()).isEqualTo(keyA);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("waiting").asLong()).isEqualTo(3);
        assertThat(counts.get("offered").asLong()).isEqualTo(1);
        assertThat(counts.get("requeued").asLong()).as("no requeue").isZero();
        assertThat(counts.get("offersExpired").asLong()).isZero();

        client.transition(event, entryB, "ACTIVE", "g2");
        Reply active = client.transition(event, entryB, "OFFER_WITHDRAWN", "g2");
        assertThat(active.status()).as("a claimed offer is not withdrawn").isEqualTo(409);
        assertThat(active.json().get("type").asString()).endsWith("/state-conflict");

        client.offer(event, entryA, "g3");
        assertThat(client.transition(event, entryA, "OFFER_WITHDRAWN", "g1").status())
                .as("the old grant no longer holds the entry")
                .isEqualTo(409);
        assertThat(client.transition(event, entryA, "OFFER_EXPIRED", "g3")
                        .json()
                        .get("state")
                        .asString())
                .as("the withdrawal spent no requeue: this lapse still goes to the back once")
                .isEqualTo("WAITING");
        assertThat(client.status(event, a).ticket().orderKey()).isGreaterThan(keyA);
    }

    @Test
    void aResentOfferMovesItsDeadlineLaterNeverEarlierAndOnlyForItsGrant() {
        String event = client.newEvent("resent-offer", "OPEN");
        String a = VisitorId.random().value();
        String entryA = client.join(event, a).receipt();
        client.offer(event, entryA, "g1", "2030-01-01T00:00:00Z");

        JsonNode later = client.offer(event, entryA, "g1", "2030-01-01T00:01:15Z");
        assertThat(later.get("state").asString()).isEqualTo("OFFERED");
        assertThat(later.get("applied").asBoolean()).isTrue();
        assertThat(offerExpiresAt(event, a)).isEqualTo(Instant.parse("2030-01-01T00:01:15Z"));

        assertThat(client.offer(event, entryA, "g1", "2030-01-01T00:00:30Z")
                        .get("applied")
                        .asBoolean())
                .isTrue();
        assertThat(offerExpiresAt(event, a)).as("never earlier").isEqualTo(Instant.parse("2030-01-01T00:01:15Z"));

        JsonNode other = client.offer(event, entryA, "g2", "2031-01-01T00:00:00Z");
        assertThat(other.get("applied").asBoolean())
                .as("another grant is refused")
                .isFalse();
        assertThat(offerExpiresAt(event, a)).isEqualTo(Instant.parse("2030-01-01T00:01:15Z"));
        assertThat(client.counts(event).get("offered").asLong()).isEqualTo(1);
    }

    private Instant offerExpiresAt(String event, String visitor) {
        return Instant.parse(client.status(event, visitor)
                .json()
                .get("offer")
                .get("expiresAt")
                .asString());
    }

    @Test
    void theDropPolicyExpiresAnUnclaimedOfferAtOnce() {
        String event = QueueClient.newEventId("drop");
        client.putEvent(event, "OPEN", "\"expiredOfferPolicy\":\"DROP\"");
        String entry = client.join(event, VisitorId.random().value()).receipt();
        client.offer(event, entry, "g1");
        assertThat(client.transition(event, entry, "OFFER_EXPIRED", "g1")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("EXPIRED");
        assertThat(client.counts(event).get("waiting").asLong()).isZero();
    }

    @Test
    void theSnapshotSummarisesTheWaitingOrderSoAnyPositionCanBeBanded() {
        String event = QueueClient.newEventId("snapshot");
        client.putEvent(event, "OPEN", "\"announcement\":\"Doors at 10\"");
        List<String> visitors = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            String v = VisitorId.random().value();
            visitors.add(v);
            client.join(event, v);
        }
        List<JsonNode> first = client.candidates(event, 25);
        String offers = first.stream()
                .map(c -> "{\"entryId\":\"" + c.get("entryId").asString() + "\",\"grantId\":\"g"
                        + c.get("entryId").asString() + "\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}")
                .collect(Collectors.joining(",", "{\"offers\":[", "]}"));
        client.internal("POST", "/internal/events/" + event + "/offers", offers);
        for (int i = 100; i < 130; i++) {
            client.leave(event, visitors.get(i));
        }

        JsonNode snapshot = client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                .json();
        assertThat(snapshot.get("phase").asString()).isEqualTo("OPEN");
        assertThat(snapshot.get("announcement").asString()).isEqualTo("Doors at 10");
        assertThat(snapshot.get("offerWatermark").asLong()).isEqualTo(25);
        JsonNode buckets = snapshot.get("waitingBuckets");
        assertThat(buckets.size()).isBetween(1, 64);
        long sum = 0;
        for (JsonNode b : buckets) {
            sum += b.get("count").asLong();
        }
        assertThat(sum)
                .isEqualTo(600 - 25 - 30)
                .isEqualTo(snapshot.get("waiting").asLong());

        for (int i = 200; i < 600; i += 37) {
            Reply status = client.status(event, visitors.get(i));
            long key = status.ticket().orderKey();
            long aheadMin = status.json().get("position").get("aheadMin").asLong();
            long aheadMax = status.json().get("position").get("aheadMax").asLong();
            long below = 0;
            long holding = 0;
            for (JsonNode b : buckets) {
                if (b.get("maxOrderKey").asLong() < key) {
                    below += b.get("count").asLong();
                } else {
                    holding = b.get("count").asLong();
                    break;
                }
            }
            assertThat(holding).isPositive();
            // the service's band and the band from the snapshot both hold the true count, so they overlap
            assertThat(aheadMin).isLessThanOrEqualTo(below + holding - 1);
            assertThat(aheadMax).isGreaterThanOrEqualTo(below);
        }
    }

    private static String seed() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
