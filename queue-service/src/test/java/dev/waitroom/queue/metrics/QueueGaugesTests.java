package dev.waitroom.queue.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.QueueClient;
import dev.waitroom.queue.QueueServiceTest;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The queue's gauges come from Redis on a schedule, not from requests: the oldest wait, the waiting count and the
 * visitors not seen for the configured minutes follow what Redis holds, and every meter carries the application tag.
 */
@QueueServiceTest
class QueueGaugesTests {

    @Autowired
    RedissonClient redisson;

    @Autowired
    QueueGauges gauges;

    @Autowired
    GaugeReads reads;

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void waitingAndOldestWaitAreReadFromRedisOnTheirScheduleWithoutARequest() {
        QueueClient client = new QueueClient(port);
        String event = client.newEvent("gauges", "OPEN");
        List<String> visitors = join(client, event, 3);
        // the visitor at the front joined ten minutes ago (its record says so); no request follows
        long tenMinutesAgo = Instant.now().minusSeconds(600).getEpochSecond();
        RMap<String, String> records =
                redisson.getMap(EventKeys.of(new EventId(event)).entries(1), StringCodec.INSTANCE);
        String[] record = records.get("1").split("\\|", -1);
        record[3] = Long.toString(tenMinutesAgo);
        records.put("1", String.join("|", record));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            String scrape = scrape();
            assertThat(value(scrape, "waitroom_queue_waiting", event)).isEqualTo(3);
            assertThat(value(scrape, "waitroom_queue_oldest_wait_seconds", event))
                    .isGreaterThanOrEqualTo(600);
        });

        client.leave(event, visitors.get(0));
        gauges.refreshCounts();
        String scrape = scrape();
        assertThat(value(scrape, "waitroom_queue_waiting", event)).isEqualTo(2);
        assertThat(value(scrape, "waitroom_queue_entries", event, "state=\"left\""))
                .isEqualTo(1);
        assertThat(value(scrape, "waitroom_queue_oldest_wait_seconds", event))
                .as("the new front joined just now")
                .isLessThan(600);
        assertThat(scrape).doesNotContain("waitroom_queue_abandoned");
    }

    @Test
    void visitorsNotSeenForTheIntervalAreCountedUnseenAcrossBuckets() {
        QueueClient client = new QueueClient(port);
        String event = client.newEvent("unseen", "OPEN");
        List<String> visitors = join(client, event, 200); // sequences 1..200: buckets 0 and 1
        EventKeys k = EventKeys.of(new EventId(event));
        String tenMinutesAgo = Long.toString(Instant.now().minusSeconds(600).getEpochSecond());
        for (long seq : new long[] {2, 150, 151}) {
            redisson.<String, String>getMap(k.seen(seq), StringCodec.INSTANCE)
                    .put(Long.toString(seq % EventKeys.BUCKET), tenMinutesAgo);
        }
        gauges.refreshUnseen();
        assertThat(value(scrape(), "waitroom_queue_waiting_unseen", event, "minutes=\"2\""))
                .isEqualTo(3);
        long cutoff = Instant.now().minusSeconds(120).getEpochSecond();
        assertThat(reads.unseen(new EventId(event), cutoff, 1))
                .as("one bucket per call counts the same")
                .isEqualTo(3);

        client.leave(event, visitors.get(150)); // sequence 151: no longer waiting, so not counted
        client.status(event, visitors.get(1)); // sequence 2 polls again: seen now
        gauges.refreshUnseen();
        assertThat(value(scrape(), "waitroom_queue_waiting_unseen", event, "minutes=\"2\""))
                .isEqualTo(1);
    }

    @Test
    void everyMeterCarriesTheApplicationTag() {
        QueueClient client = new QueueClient(port);
        String event = client.newEvent("tagged", "OPEN");
        join(client, event, 1);
        gauges.refreshCounts();
        gauges.refreshUnseen();
        List<String> series = scrape().lines()
                .filter(line -> !line.startsWith("#") && !line.isBlank())
                .toList();
        assertThat(series).anySatisfy(line -> assertThat(line).startsWith("waitroom_queue_waiting{"));
        assertThat(series).anySatisfy(line -> assertThat(line).startsWith("waitroom_queue_joins_total{"));
        assertThat(series).allSatisfy(line -> assertThat(line).contains("application=\"queue-service\""));
    }

    @Test
    void anUnseenIntervalNoLongerThanTheLivenessIntervalIsRefused() {
        QueueProperties queue = new QueueProperties(
                Duration.ofSeconds(30),
                2000,
                64,
                500,
                2000,
                Duration.ofSeconds(2),
                1,
                0,
                Duration.ofMillis(500),
                100000,
                Duration.ofSeconds(5),
                Duration.ofSeconds(15));
        QueueGaugeProperties gauges =
                new QueueGaugeProperties(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30), 16);
        assertThatThrownBy(() -> new QueueGauges(
                        new QueueMetrics(new SimpleMeterRegistry()),
                        null,
                        new SimpleMeterRegistry(),
                        Clock.systemUTC(),
                        gauges,
                        queue))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("unseen-after");
    }

    private static List<String> join(QueueClient client, String event, int count) {
        List<String> visitors = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String visitor = VisitorId.random().value();
            assertThat(client.join(event, visitor).status()).isEqualTo(201);
            visitors.add(visitor);
        }
        return visitors;
    }

    private String scrape() {
        return new QueueClient(managementPort)
                .send("GET", "/actuator/prometheus", null, Map.of())
                .body();
    }

    /** The value of the one series of {@code name} for the event (and the extra label, when given). */
    private static double value(String scrape, String name, String event, String... labels) {
        Matcher m = Pattern.compile("(?m)^" + name + "\\{([^}]*)\\} (\\S+)$").matcher(scrape);
        List<Double> found = new ArrayList<>();
        while (m.find()) {
            String set = m.group(1);
            boolean match = set.contains("event=\"" + event + "\"");
            for (String label : labels) {
                match &= set.contains(label);
            }
            if (match) {
                found.add(Double.parseDouble(m.group(2)));
            }
        }
        assertThat(found).as(name + " of " + event).hasSize(1);
        return found.get(0);
    }
}
