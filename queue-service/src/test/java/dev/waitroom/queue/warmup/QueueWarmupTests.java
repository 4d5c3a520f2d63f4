package dev.waitroom.queue.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.QueueServiceApplication;
import dev.waitroom.queue.TestSecrets;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.web.warmup.WarmupStep;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * The warm-up before ready (docs/operating/running.md, "Warm-up before ready"), on the real service against the real
 * Redis: readiness and the overall health are down while it runs and up after, liveness is up throughout, it leaves no
 * key and no meter of its private event, and a step that fails still lets the service become ready. Every other test
 * runs with the warm-up off (src/test/resources/application.properties).
 */
@ExtendWith(OutputCaptureExtension.class)
class QueueWarmupTests {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** What a probe of the management port answered while the warm-up ran: path -> status code. */
    private static final Map<String, Integer> DURING = new ConcurrentHashMap<>();

    @Test
    void readinessWaitsForTheWarmUpWhichLeavesNoKeyAndNoMeterOfItsEvent(CapturedOutput output) throws Exception {
        DURING.clear();
        try (ConfigurableApplicationContext context = start(HealthProbe.class)) {
            assertThat(DURING)
                    .containsEntry("/actuator/health/readiness", 503)
                    .containsEntry("/actuator/health", 503)
                    .containsEntry("/actuator/health/liveness", 200);
            assertThat(output).containsPattern("Warm-up step queue joins and status: [1-9][0-9]* calls");
            assertThat(get(context, "/actuator/health/readiness")).isEqualTo(200);
            assertThat(get(context, "/actuator/health")).isEqualTo(200);
            assertThat(warmUpKeys(context)).isEmpty();
            assertThat(warmUpMeters(context)).isEmpty();
        }
    }

    @Test
    void theStepWritesItsOwnEventAndCloseErasesEveryKeyOfIt() throws Exception {
        try (ConfigurableApplicationContext context = start()) {
            QueueWarmup warmup = context.getBean(QueueWarmup.class);
            for (int i = 0; i < 300; i++) { // more than two buckets of 128 entries
                warmup.call(i);
            }
            List<String> keys = warmUpKeys(context);
            assertThat(keys).isNotEmpty().allMatch(k -> k.startsWith("wr:{" + EventId.WARM_UP_PREFIX));
            assertThat(keys.stream()
                            .map(k -> k.substring(0, k.indexOf('}') + 1))
                            .distinct())
                    .hasSize(1);
            assertThat(keys).anyMatch(k -> k.endsWith(":e:2"));
            warmup.close();
            assertThat(warmUpKeys(context)).isEmpty();
            assertThat(warmUpMeters(context)).isEmpty();
        }
    }

    @Test
    void aFailingStepIsLoggedAndReadinessStillComes(CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext context = start(FailingStep.class)) {
            assertThat(output).contains("Warm-up step failing on purpose failed after 3 calls");
            assertThat(output).containsPattern("Warm-up step queue joins and status: [1-9][0-9]* calls");
            assertThat(get(context, "/actuator/health/readiness")).isEqualTo(200);
            assertThat(warmUpKeys(context)).isEmpty();
        }
    }

    /** Asks the management port while the warm-up runs. */
    static class HealthProbe implements WarmupStep {

        private final ConfigurableApplicationContext context;

        HealthProbe(ConfigurableApplicationContext context) {
            this.context = context;
        }

        @Override
        public String name() {
            return "health probe";
        }

        @Override
        public void call(int iteration) throws Exception {
            if (iteration == 0) {
                for (String path :
                        List.of("/actuator/health/readiness", "/actuator/health", "/actuator/health/liveness")) {
                    DURING.put(path, get(context, path));
                }
            }
        }
    }

    /** Fails on its fourth call, before the queue's own step runs. */
    @Order(Ordered.HIGHEST_PRECEDENCE)
    static class FailingStep implements WarmupStep {

        @Override
        public String name() {
            return "failing on purpose";
        }

        @Override
        public void call(int iteration) {
            if (iteration == 3) {
                throw new IllegalStateException("a warm-up that breaks");
            }
        }
    }

    private static ConfigurableApplicationContext start(Class<?>... extraSteps) {
        Stream<String> properties = Stream.of(
                "server.port=0",
                "management.server.port=0",
                "spring.data.redis.host=" + RealStores.redisHost(),
                "spring.data.redis.port=" + RealStores.redisPort(),
                "spring.main.banner-mode=off",
                TestSecrets.GATEWAY.callerProperty(),
                TestSecrets.COORDINATOR.callerProperty(),
                "waitroom.security.ticket-key=" + TestSecrets.TICKET_KEY,
                "waitroom.warmup.enabled=true",
                "waitroom.warmup.iterations=400",
                "waitroom.warmup.duration=20s");
        SpringApplicationBuilder builder = new SpringApplicationBuilder(QueueServiceApplication.class);
        if (extraSteps.length > 0) {
            builder.sources(extraSteps);
        }
        return builder.run(properties.map(property -> "--" + property).toArray(String[]::new));
    }

    private static int get(ConfigurableApplicationContext context, String path) throws Exception {
        String port = context.getEnvironment().getProperty("local.management.port");
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static List<String> warmUpKeys(ConfigurableApplicationContext context) {
        return context.getBean(RedissonClient.class)
                .getKeys()
                .getKeysStreamByPattern("wr:{" + EventId.WARM_UP_PREFIX + "*")
                .toList();
    }

    private static List<Meter.Id> warmUpMeters(ConfigurableApplicationContext context) {
        return context.getBean(MeterRegistry.class).getMeters().stream()
                .map(Meter::getId)
                .filter(id -> id.getTags().stream().anyMatch(t -> t.getValue().startsWith(EventId.WARM_UP_PREFIX)))
                .toList();
    }
}
