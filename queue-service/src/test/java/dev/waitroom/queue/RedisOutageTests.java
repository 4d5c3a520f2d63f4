package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/** Stops the shared Redis, so it runs after every other class of this JVM. */
@QueueServiceTest
@Order(Integer.MAX_VALUE)
class RedisOutageTests {

    private final QueueClient client;

    RedisOutageTests(QueueClient client) {
        this.client = client;
    }

    @AfterEach
    void restartRedis() {
        RealStores.startRedis();
    }

    @Test
    void whileRedisIsDownVisitorsGet503WithRetryAfterAndAfterwardsEveryPlaceIsKept() throws Exception {
        String event = client.newEvent("outage", "OPEN");
        List<String> visitors = new ArrayList<>();
        Map<String, Long> keys = new HashMap<>();
        Map<String, String> receipts = new HashMap<>();
        for (int i = 0; i < 30; i++) {
            String v = VisitorId.random().value();
            Reply r = client.join(event, v);
            visitors.add(v);
            keys.put(v, r.ticket().orderKey());
            receipts.put(v, r.receipt());
        }

        // The test Redis is killed (SIGKILL) and runs appendfsync everysec: wait until the joins above reached the
        // append-only file, as they would within a second in production, so the crash tests recovery, not fsync.
        try (RedisProbe redis = new RedisProbe(RealStores.redisHost(), RealStores.redisPort())) {
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(redis.info("persistence"))
                            .contains("aof_buffer_length:0")
                            .contains("aof_pending_bio_fsync:0"));
        }
        RealStores.stopRedis();
        String newcomer = VisitorId.random().value();
        for (Reply r : List.of(
                client.join(event, newcomer),
                client.status(event, visitors.get(0)),
                client.leave(event, visitors.get(1)),
                client.internal("GET", "/internal/events/" + event + "/counts", null))) {
            assertThat(r.status()).as(r.body()).isEqualTo(503);
            assertThat(r.header("Retry-After")).isNotBlank();
            assertThat(r.header("Content-Type")).startsWith("application/problem+json");
            assertThat(r.json().get("type").asString()).endsWith("/queue-store-unavailable");
        }

        RealStores.startRedis();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(
                        () -> assertThat(client.status(event, visitors.get(0)).status())
                                .isEqualTo(200));
        for (String v : visitors) {
            Reply r = client.status(event, v);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().get("state").asString()).isEqualTo("WAITING");
            assertThat(r.receipt()).isEqualTo(receipts.get(v));
            assertThat(r.ticket().orderKey()).isEqualTo(keys.get(v));
        }
        assertThat(client.counts(event).get("waiting").asLong())
                .as("the refused leave changed nothing")
                .isEqualTo(30);
        Reply late = client.join(event, newcomer);
        assertThat(late.status()).isEqualTo(201);
        assertThat(late.ticket().orderKey()).isEqualTo(31);
    }
}
