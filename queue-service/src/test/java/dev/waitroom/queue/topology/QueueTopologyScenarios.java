package dev.waitroom.queue.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.queue.QueueServiceApplication;
import dev.waitroom.queue.TestSecrets;
import dev.waitroom.testsupport.AllAtOnce;
import dev.waitroom.tokens.VisitorId;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The queue's scenarios, run by each Redis topology's test class against the real service configured by properties
 * alone. Event ids are chosen so that the events of one run live on different cluster masters.
 */
abstract class QueueTopologyScenarios {

    static ConfigurableApplicationContext start(String... properties) {
        List<String> all = new ArrayList<>(List.of(
                "server.port=0",
                "waitroom.queue.draw-chunk-size=100",
                "waitroom.queue.busy-status-per-second=1000000",
                "spring.main.banner-mode=off"));
        all.addAll(List.of(properties));
        // as command-line arguments, which override application.yml (its fixed port may be taken)
        return new SpringApplicationBuilder(QueueServiceApplication.class)
                .initializers(new TestSecrets())
                .run(all.stream().map(p -> "--" + p).toArray(String[]::new));
    }

    abstract QueueClient client();

    /** An event id; the cluster tests choose ids whose slots spread over the masters. */
    String eventId(String prefix) {
        return QueueClient.newEventId(prefix);
    }

    @Test
    void joinsStatusAndLeaveAcrossEntryBuckets() {
        QueueClient client = client();
        String event = eventId("topo-join");
        assertThat(client.putEvent(event, "OPEN", null).status()).isEqualTo(200);
        List<String> visitors = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String visitor = VisitorId.random().value();
            Reply joined = client.join(event, visitor);
            assertThat(joined.status()).as("join %d", i).isIn(200, 201);
            assertThat(joined.ticket().orderKey()).isEqualTo(i + 1);
            visitors.add(visitor);
        }
        assertThat(client.join(event, visitors.get(200)).ticket().orderKey())
                .as("a second join finds the entry")
                .isEqualTo(201);
        for (int i : List.of(0, 99, 127, 128, 255, 256, 299)) {
            JsonNode position = client.status(event, visitors.get(i)).json().get("position");
            assertThat(position.get("aheadMin").asLong()).as("visitor %d", i).isLessThanOrEqualTo(i);
            assertThat(position.get("aheadMax").asLong()).as("visitor %d", i).isGreaterThanOrEqualTo(i);
        }
        assertThat(client.leave(event, visitors.get(0)).status()).isIn(200, 204);
        assertThat(client.status(event, visitors.get(99))
                        .json()
                        .get("position")
                        .get("aheadMin")
                        .asLong())
                .as("exact below 100")
                .isEqualTo(98);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("waiting").asLong()).isEqualTo(299);
        assertThat(counts.get("joins").asLong()).isEqualTo(300);
        assertThat(client.status(event, VisitorId.random().value()).status())
                .as("no entry")
                .isEqualTo(404);
    }

    @Test
    void presaleDrawThenOffersAndTransitionsInDrawOrder() {
        QueueClient client = client();
        String event = eventId("topo-draw");
        client.putEvent(event, "SCHEDULED", null);
        Map<String, String> visitorByEntry = new LinkedHashMap<>();
        for (int i = 0; i < 260; i++) {
            String visitor = VisitorId.random().value();
            visitorByEntry.put(client.join(event, visitor).receipt(), visitor);
        }
        assertThat(client.putEvent(event, "OPEN", null)
                        .json()
                        .get("presaleCount")
                        .asLong())
                .isEqualTo(260);
        byte[] seed = new byte[32];
        new SecureRandom().nextBytes(seed);
        Reply drawn = client.draw(event, HexFormat.of().formatHex(seed));
        assertThat(drawn.status()).isEqualTo(200);
        assertThat(drawn.json().get("completed").asBoolean()).isTrue();

        List<JsonNode> all = client.candidates(event, 1000);
        assertThat(all).hasSize(260);
        List<Long> keys = all.stream().map(c -> c.get("orderKey").asLong()).toList();
        assertThat(keys).isSorted().doesNotHaveDuplicates();
        all.forEach(c -> assertThat(c.get("visitor").asString())
                .isEqualTo(visitorByEntry.get(c.get("entryId").asString())));

        List<JsonNode> first = all.subList(0, 50);
        String offers = first.stream()
                .map(c -> "{\"entryId\":\"" + c.get("entryId").asString() + "\",\"grantId\":\"g-"
                        + c.get("entryId").asString() + "\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}")
                .collect(Collectors.joining(",", "{\"offers\":[", "]}"));
        JsonNode results = client.internal("POST", "/internal/events/" + event + "/offers", offers)
                .json()
                .get("results");
        assertThat(results).hasSize(50);
        results.forEach(r -> assertThat(r.get("state").asString()).isEqualTo("OFFERED"));
        assertThat(client.candidates(event, 10).get(0).get("orderKey").asLong()).isEqualTo(keys.get(50));

        String a = first.get(0).get("entryId").asString();
        assertThat(transition(client, event, a, "ACTIVE").json().get("state").asString())
                .isEqualTo("ACTIVE");
        assertThat(transition(client, event, a, "COMPLETED").json().get("state").asString())
                .isEqualTo("COMPLETED");
        String b = first.get(1).get("entryId").asString();
        assertThat(transition(client, event, b, "OFFER_EXPIRED")
                        .json()
                        .get("state")
                        .asString())
                .as("back of the queue once")
                .isEqualTo("WAITING");
        List<JsonNode> after = client.candidates(event, 1000);
        assertThat(after.get(after.size() - 1).get("entryId").asString()).isEqualTo(b);

        JsonNode counts = client.counts(event);
        assertThat(counts.get("completed").asLong()).isEqualTo(1);
        assertThat(counts.get("offered").asLong()).isEqualTo(48);
        assertThat(counts.get("waiting").asLong()).isEqualTo(211);
        assertThat(counts.get("oldestWaitSeconds").asLong())
                .as("the front entry was found")
                .isNotNegative();
        JsonNode snapshot = client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                .json();
        assertThat(snapshot.toString()).contains("\"waiting\":211");
    }

    /** The ceiling's window key is declared with the event's keys: on a cluster it lives in the event's slot. */
    @Test
    void theJoinCeilingCountsInTheEventsSlot() {
        QueueClient client = client();
        String event = eventId("topo-ceiling");
        assertThat(client.putEvent(event, "OPEN", "\"maxJoinsPerSecond\":0.05").status())
                .isEqualTo(200);
        int created = 0;
        int throttled = 0;
        for (int i = 0; i < 6; i++) {
            Reply r = client.join(event, VisitorId.random().value());
            assertThat(r.status()).as(r.body()).isIn(201, 503);
            if (r.status() == 201) {
                created++;
            } else {
                assertThat(r.json().get("type").asString()).endsWith("/joins-throttled");
                assertThat(r.header("Retry-After")).isNotBlank();
                throttled++;
            }
        }
        assertThat(created).as("one entry per 20 s window").isBetween(1, 2);
        assertThat(throttled).isEqualTo(6 - created);
        assertThat(client.counts(event).get("joins").asLong()).isEqualTo(created);
    }

    /**
     * A rejoin reads the spent entry's bucket and writes the next sequence's, buckets apart: every key declared, in the
     * event's slot, and exactly one new entry however many calls race.
     */
    @Test
    void aRejoinAcrossEntryBucketsMakesOneNewEntry() throws Exception {
        QueueClient client = client();
        String event = eventId("topo-rejoin");
        assertThat(client.putEvent(event, "OPEN", "\"expiredOfferPolicy\":\"DROP\"")
                        .status())
                .isEqualTo(200);
        String visitor = VisitorId.random().value();
        String old = client.join(event, visitor).receipt();
        for (int i = 0; i < 140; i++) {
            client.join(event, VisitorId.random().value());
        }
        client.internal(
                "POST",
                "/internal/events/" + event + "/offers",
                "{\"offers\":[{\"entryId\":\"" + old + "\",\"grantId\":\"g-" + old
                        + "\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}]}");
        assertThat(transition(client, event, old, "OFFER_EXPIRED")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("EXPIRED");

        List<Reply> replies = AllAtOnce.call(16, () -> client.join(event, visitor));
        assertThat(replies).allSatisfy(r -> assertThat(r.status()).as(r.body()).isIn(200, 201));
        assertThat(replies.stream().filter(r -> r.status() == 201)).hasSize(1);
        assertThat(replies.stream().map(Reply::receipt).distinct()).hasSize(1).doesNotContain(old);
        assertThat(replies.get(0).ticket().orderKey())
                .as("entry 142, in the second bucket")
                .isEqualTo(142);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("joins").asLong()).isEqualTo(142);
        assertThat(counts.get("waiting").asLong()).isEqualTo(141);
        assertThat(counts.get("expired").asLong()).isEqualTo(1);
    }

    private static Reply transition(QueueClient client, String event, String entry, String to) {
        return client.internal(
                "POST",
                "/internal/events/" + event + "/entries/" + entry + "/transition",
                "{\"to\":\"" + to + "\",\"grantId\":\"g-" + entry + "\"}");
    }
}
