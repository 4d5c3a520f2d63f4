package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.testsupport.LocalRedis;
import dev.waitroom.tokens.VisitorId;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Redis at its {@code maxmemory} with {@code noeviction} (issue 16, item 5), on a Redis of its own started for this
 * class (the shared test Redis keeps its configuration): a join is 503 {@code queue-store-full} with Retry-After and
 * changes nothing, every place already taken is still there in its order, and the memory gauges say how full it is.
 */
class RedisFullTests {

    private static final long MAX_MEMORY = 8L * 1024 * 1024;

    private static SmallRedis redis;
    private static ConfigurableApplicationContext app;
    private static QueueClient client;
    private static int managementPort;

    /** One redis-server with a small maxmemory and noeviction, on a free loopback port. */
    static final class SmallRedis extends LocalRedis {

        final int port = freePort(false);

        SmallRedis() {
            super("redis-small");
        }

        static SmallRedis start() {
            return started(new SmallRedis(), set -> {
                List<String> args = set.serverArgs(set.port);
                args.addAll(List.of("--maxmemory", Long.toString(MAX_MEMORY), "--maxmemory-policy", "noeviction"));
                set.start(set.port, args);
            });
        }

        @Override
        public String[] springProperties() {
            return new String[] {"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port};
        }
    }

    @BeforeAll
    static void start() {
        redis = SmallRedis.start();
        List<String> properties = new ArrayList<>(List.of(
                "server.port=0",
                "management.server.port=0",
                "waitroom.queue.redis-memory-refresh=200ms",
                "spring.main.banner-mode=off"));
        properties.addAll(List.of(redis.springProperties()));
        app = new SpringApplicationBuilder(QueueServiceApplication.class)
                .initializers(new TestSecrets())
                .run(properties.stream().map(p -> "--" + p).toArray(String[]::new));
        client = new QueueClient(Integer.parseInt(app.getEnvironment().getProperty("local.server.port")));
        managementPort = Integer.parseInt(app.getEnvironment().getProperty("local.management.port"));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aFullRedisRefusesJoinsWith503AndKeepsEveryPlaceInItsOrder() throws Exception {
        String event = QueueClient.newEventId("full");
        // with a ceiling, the join's first write is the ceiling's window: refused too, so nothing at all is written
        assertThat(client.putEvent(event, "OPEN", "\"maxJoinsPerSecond\":100000")
                        .status())
                .isEqualTo(200);
        Map<String, String> receipts = new LinkedHashMap<>();
        Map<String, Long> keys = new LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            String visitor = VisitorId.random().value();
            Reply joined = client.join(event, visitor);
            assertThat(joined.status()).isEqualTo(201);
            receipts.put(visitor, joined.receipt());
            keys.put(visitor, joined.ticket().orderKey());
        }

        int fillers;
        long maxMemory;
        try (RedisProbe probe = new RedisProbe("127.0.0.1", redis.port)) {
            fillers = fill(probe);
            assertThat(probe.call("GET", "wr:{" + event + "}:seq")).isEqualTo("40");
        }
        assertThat(fillers).as("Redis took some filler before it was full").isPositive();
        try (RedisProbe probe = new RedisProbe("127.0.0.1", redis.port)) {
            // the filler's connection took its buffers with it (a client holds tens of KB), which can leave Redis just
            // under its limit again: hold the limit under what is used now, as a Redis that kept filling would be
            maxMemory = probe.usedMemory() - 256 * 1024;
            probe.call("CONFIG", "SET", "maxmemory", Long.toString(maxMemory));
            assertThatThrownBy(() -> probe.call("SET", "one-more", "x"))
                    .as("Redis is full")
                    .hasMessageStartingWith("OOM");
        }

        String newcomer = VisitorId.random().value();
        for (int attempt = 0; attempt < 3; attempt++) {
            Reply refused = client.join(event, newcomer);
            assertThat(refused.status()).as(refused.body()).isEqualTo(503);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            assertThat(refused.json().get("type").asString()).endsWith("/queue-store-full");
            assertThat(refused.header("Retry-After")).isEqualTo("30");
        }
        String leaver = receipts.keySet().iterator().next();
        Reply leave = client.leave(event, leaver);
        assertThat(leave.status()).as("any other write is refused the same way").isEqualTo(503);
        assertThat(leave.json().get("type").asString()).endsWith("/queue-store-full");

        // nothing was written by the refused calls, and everything stored is still there, in its order
        try (RedisProbe probe = new RedisProbe("127.0.0.1", redis.port)) {
            assertThat(probe.call("GET", "wr:{" + event + "}:seq"))
                    .as("no sequence taken")
                    .isEqualTo("40");
            assertThat(probe.call("HGET", "wr:{" + event + "}:jr", "n"))
                    .as("no join counted")
                    .isNotEqualTo("41");
        }
        assertThat(client.status(event, newcomer).status()).isEqualTo(404);
        assertThat(client.counts(event).get("joins").asLong()).isEqualTo(40);
        assertThat(client.counts(event).get("waiting").asLong()).isEqualTo(40);
        for (Map.Entry<String, String> e : receipts.entrySet()) {
            Reply status = client.status(event, e.getKey());
            assertThat(status.status()).as(status.body()).isEqualTo(200);
            assertThat(status.json().get("state").asString()).isEqualTo("WAITING");
            assertThat(status.receipt()).isEqualTo(e.getValue());
            assertThat(status.ticket().orderKey()).isEqualTo(keys.get(e.getKey()));
        }
        Reply again = client.join(event, leaver);
        assertThat(again.status())
                .as("a visitor who holds a place gets it back while Redis is full: %s", again.body())
                .isEqualTo(200);
        assertThat(again.receipt()).isEqualTo(receipts.get(leaver));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(gauge("waitroom_queue_redis_memory_max_bytes")).isEqualTo(maxMemory);
            assertThat(gauge("waitroom_queue_redis_memory_used_bytes"))
                    .as("the gauge shows Redis at its limit")
                    .isGreaterThanOrEqualTo(maxMemory * 9 / 10);
        });

        // memory back: the refused join now takes the next place, no sequence was lost
        try (RedisProbe probe = new RedisProbe("127.0.0.1", redis.port)) {
            probe.call("CONFIG", "SET", "maxmemory", Long.toString(MAX_MEMORY));
            for (int i = 0; i < fillers; i++) {
                probe.call("DEL", "filler:" + i);
            }
        }
        Reply late = client.join(event, newcomer);
        assertThat(late.status()).as(late.body()).isEqualTo(201);
        assertThat(late.ticket().orderKey()).isEqualTo(41);
    }

    /** Writes 64 KB strings until Redis refuses one for memory; answers how many it took. */
    private static int fill(RedisProbe probe) throws IOException {
        String chunk = "x".repeat(64 * 1024);
        for (int i = 0; ; i++) {
            try {
                probe.call("SET", "filler:" + i, chunk);
            } catch (IOException refused) {
                assertThat(refused.getMessage()).startsWith("OOM");
                return i;
            }
            assertThat(i).as("Redis refuses a write before 10,000 fillers").isLessThan(10_000);
        }
    }

    private static long gauge(String name) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("(?m)^" + name + "(?:\\{[^}]*\\})? (\\S+)$").matcher(r.body());
        assertThat(m.find())
                .as(name + " in "
                        + r.body()
                                .lines()
                                .filter(l -> l.contains("redis_memory"))
                                .toList())
                .isTrue();
        return (long) Double.parseDouble(m.group(1));
    }
}
