package dev.waitroom.queue.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.testsupport.LocalRedisExtension;
import dev.waitroom.testsupport.LocalRedisSentinels;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The queue on a real Sentinel set, configured by {@code spring.data.redis.sentinel.*} alone, with every change
 * acknowledged only once a replica has it ({@code waitroom.queue.redis-replica-acks=1}).
 */
class QueueOnRedisSentinelTests extends QueueTopologyScenarios {

    @RegisterExtension
    static final LocalRedisExtension<LocalRedisSentinels> redis = LocalRedisExtension.sentinels();

    static ConfigurableApplicationContext app;
    static QueueClient client;

    @BeforeAll
    static void startService() {
        List<String> properties = new ArrayList<>(List.of(redis.springProperties()));
        properties.addAll(List.of(
                "waitroom.queue.redis-replica-acks=1",
                "waitroom.queue.redis-replica-ack-timeout=1s",
                "waitroom.queue.redis-timeout=1s"));
        app = start(properties.toArray(String[]::new));
        client = new QueueClient(Integer.parseInt(app.getEnvironment().getProperty("local.server.port")));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Override
    QueueClient client() {
        return client;
    }

    /**
     * Joins run on four threads while the primary is killed; a join counts as acknowledged only when it answered
     * 201 or 200. Every acknowledged join is found, with the same entry, on the promoted replica.
     */
    @Test
    void noAcknowledgedJoinIsLostWhenThePrimaryCrashes() throws Exception {
        String event = QueueClient.newEventId("topo-failover");
        assertThat(client.putEvent(event, "OPEN", null).status()).isEqualTo(200);
        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        AtomicInteger refused = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch beforeCrash = new CountDownLatch(200);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        List<Future<?>> joiners = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            joiners.add(threads.submit(() -> {
                while (!stop.get()) {
                    String visitor = VisitorId.random().value();
                    Reply r = client.join(event, visitor);
                    if (r.status() == 200 || r.status() == 201) {
                        acknowledged.put(visitor, r.receipt());
                        beforeCrash.countDown();
                    } else {
                        refused.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        assertThat(beforeCrash.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        int old = redis.get().crashPrimary();
        int promoted = redis.get().awaitFailoverFrom(old);
        int atFailover = acknowledged.size();
        // joins go on until the service writes (and replicates) on the promoted primary
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (acknowledged.size() < atFailover + 100 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        stop.set(true);
        for (Future<?> f : joiners) {
            f.get();
        }
        threads.shutdown();
        assertThat(acknowledged.size())
                .as("joins resumed after the failover to %d", promoted)
                .isGreaterThanOrEqualTo(atFailover + 100);

        for (Map.Entry<String, String> e : acknowledged.entrySet()) {
            Reply status = client.status(event, e.getKey());
            assertThat(status.status())
                    .as("acknowledged join of %s", e.getKey())
                    .isEqualTo(200);
            assertThat(status.receipt()).isEqualTo(e.getValue());
        }
        assertThat(client.counts(event).get("joins").asLong())
                .as("%d joins were refused during the failover", refused.get())
                .isGreaterThanOrEqualTo(acknowledged.size());
    }
}
