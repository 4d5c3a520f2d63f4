package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.tokens.VisitorId;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A gate that has gone silent (docs/operating/regions.md): when the coordinator has not pushed an open, queueing event's state
 * for longer than {@code waitroom.queue.gate-silence} (15 s), nobody is being admitted from this queue, so the public
 * status, the edge snapshot and the visitor's status show the event PAUSED, with no estimate; the stored state is
 * unchanged, joins still work, and the next push shows it queueing again.
 */
@QueueServiceTest
class GateSilenceTests {

    private final QueueClient client;

    GateSilenceTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void aQueueWhoseGateStoppedPushingIsShownPausedUntilTheNextPush() throws IOException {
        String event = client.newEvent("silent", "OPEN");
        String visitor = VisitorId.random().value();
        assertThat(client.join(event, visitor).status()).isEqualTo(201);
        client.join(event, VisitorId.random().value());
        String second = VisitorId.random().value();
        assertThat(client.join(event, second).status()).isEqualTo(201);
        assertThat(shownMode(event, second)).containsOnly("QUEUEING");

        // the last push was a minute ago: the gate has stopped
        pushedSecondsAgo(event, 60);
        assertThat(shownMode(event, second)).containsOnly("PAUSED");
        JsonNode status = client.status(event, second).json();
        assertThat(status.get("estimatedWait") == null
                        || status.get("estimatedWait").isNull())
                .as("no estimate while nobody is admitted: %s", status)
                .isTrue();
        assertThat(status.get("position")).as("the place is kept").isNotNull();
        Reply joined = client.join(event, VisitorId.random().value());
        assertThat(joined.status()).as("joining still works").isEqualTo(201);
        assertThat(joined.json().get("mode").asString()).isEqualTo("PAUSED");

        // a push within the setting (10 s ago) is not silence; the gate's next push ends it
        pushedSecondsAgo(event, 10);
        assertThat(shownMode(event, second)).containsOnly("QUEUEING");
        pushedSecondsAgo(event, 60);
        assertThat(client.putEvent(event, "OPEN", null).status()).isEqualTo(200);
        assertThat(shownMode(event, second)).containsOnly("QUEUEING");
    }

    @Test
    void onlyAnOpenQueueingEventCanFallSilent() throws IOException {
        String scheduled = client.newEvent("silent-pre", "SCHEDULED");
        String visitor = VisitorId.random().value();
        assertThat(client.join(scheduled, visitor).status()).isEqualTo(201);
        pushedSecondsAgo(scheduled, 600);
        assertThat(shownMode(scheduled, visitor)).containsOnly("QUEUEING");

        String soldOut = QueueClient.newEventId("silent-sold");
        Reply pushed = client.internal(
                "PUT",
                "/internal/events/" + soldOut,
                "{\"phase\":\"OPEN\",\"mode\":\"SOLD_OUT\",\"saleGeneration\":1,\"admissionRatePerSecond\":10,"
                        + "\"offerTtlSeconds\":60}");
        assertThat(pushed.status()).as(pushed.body()).isEqualTo(200);
        pushedSecondsAgo(soldOut, 600);
        assertThat(client.internal("GET", "/events/" + soldOut + "/status", null)
                        .json()
                        .get("mode")
                        .asString())
                .isEqualTo("SOLD_OUT");
    }

    /** The mode in the public status, the edge snapshot and the visitor's own status. */
    private java.util.Set<String> shownMode(String event, String visitor) {
        return java.util.stream.Stream.of(
                        client.internal("GET", "/events/" + event + "/status", null)
                                .json()
                                .get("mode")
                                .asString(),
                        client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                                .json()
                                .get("mode")
                                .asString(),
                        client.status(event, visitor).json().get("mode").asString())
                .collect(java.util.stream.Collectors.toSet());
    }

    private static void pushedSecondsAgo(String event, long seconds) throws IOException {
        try (RedisProbe redis = new RedisProbe(RealStores.redisHost(), RealStores.redisPort())) {
            redis.call(
                    "HSET",
                    EventKeys.of(new EventId(event)).event(),
                    "updatedAt",
                    Long.toString(System.currentTimeMillis() - seconds * 1000));
        }
    }
}
