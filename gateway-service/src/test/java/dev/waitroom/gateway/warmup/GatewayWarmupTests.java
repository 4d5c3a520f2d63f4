package dev.waitroom.gateway.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.gateway.GatewayApplication;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.StubHttpServer;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RecordedRequest;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.test.context.ContextConfiguration;

/**
 * The gateway's warm-up before ready (docs/operating/running.md, "Warm-up before ready") against the stub upstreams and
 * the real Redis: readiness (management port and the public {@code /readyz}) and the overall health are down while it
 * runs and up after, liveness is up throughout, every step ran, nothing about its private events reached the
 * coordinator or booking and the queue-service only as the join route's batches of joins (which it refuses: it never
 * heard of the event), no Redis key and no meter names them, no snapshot of them stays, and a step that fails (the probe
 * below, after it has looked) still lets the gateway become ready. Every other test runs with the warm-up off
 * (src/test/resources/application.properties).
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
        classes = GatewayApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"waitroom.warmup.enabled=true", "waitroom.warmup.iterations=100", "waitroom.warmup.duration=60s"})
@ContextConfiguration(initializers = GatewayTestInitializer.class)
@Import(GatewayWarmupTests.Probe.class)
class GatewayWarmupTests {

    /** The join route's batches for a warm-up's event: the one thing of the warm-up's that reaches an upstream. */
    private static final Pattern JOIN_BATCH =
            Pattern.compile("/internal/events/" + Pattern.quote(EventId.WARM_UP_PREFIX) + "[0-9a-f]+/joins");

    /** What the gateway answered while the warm-up ran: port property and path -> status code. */
    private static final Map<String, Integer> DURING = new ConcurrentHashMap<>();

    private static final List<String> PROBED = List.of(
            "local.management.port /actuator/health/readiness",
            "local.management.port /actuator/health",
            "local.management.port /actuator/health/liveness",
            "local.server.port /readyz");

    @Autowired
    Environment environment;

    @Autowired
    MeterRegistry meters;

    @Autowired
    EventSnapshots snapshots;

    @Autowired
    ReactiveStringRedisTemplate redis;

    @Test
    void readinessWaitsForTheWarmUpWhichReachesNoOtherServiceAndLeavesNoTrace(CapturedOutput output) throws Exception {
        assertThat(DURING)
                .containsEntry(PROBED.get(0), 503)
                .containsEntry(PROBED.get(1), 503)
                .containsEntry(PROBED.get(2), 200)
                .containsEntry(PROBED.get(3), 503);
        for (String step : List.of("edge status", "admission tokens", "proof of work", "waiting page over loopback")) {
            assertThat(output).contains("Warm-up step " + step + ": 100 calls");
        }
        assertThat(output).contains("Warm-up step health probe failed after 1 calls");
        for (String probe : PROBED) {
            assertThat(get(environment, probe)).as(probe).isEqualTo(200);
        }
        StubUpstreams upstreams = StubUpstreams.get();
        Predicate<RecordedRequest> warmUpTrace = r -> !isWarmUpJoin(r)
                && (r.path().contains(EventId.WARM_UP_PREFIX)
                        || (r.body() != null && r.body().contains(EventId.WARM_UP_PREFIX)));
        assertThat(upstreams.queue.received(warmUpTrace)).isEmpty();
        for (StubHttpServer upstream : List.of(upstreams.coordinator, upstreams.booking)) {
            assertThat(upstream.received(warmUpTrace)).isEmpty();
        }
        // the join route's step ran within its share of the time (the stub upstream is slower than the queue-service);
        // each call's 16 joins reached the queue-service in batches and were refused by it (the stub records each join
        // of a batch as the join it stands for)
        Matcher joinCalls = Pattern.compile("Warm-up step joins over loopback: (\\d+) calls")
                .matcher(output.getOut());
        assertThat(joinCalls.find()).as("the join route's step ran").isTrue();
        int joins = Integer.parseInt(joinCalls.group(1)) * 16;
        assertThat(joins).isPositive();
        assertThat(upstreams.queue.received(
                        r -> isWarmUpJoin(r) && !JOIN_BATCH.matcher(r.path()).matches()))
                .hasSize(joins);
        assertThat(upstreams.queue.received(r -> JOIN_BATCH.matcher(r.path()).matches()))
                .isNotEmpty()
                .hasSizeLessThan(joins);
        assertThat(redis.keys("*" + EventId.WARM_UP_PREFIX + "*").collectList().block())
                .isEmpty();
        assertThat(meters.getMeters())
                .noneMatch(m ->
                        m.getId().getTags().stream().anyMatch(t -> t.getValue().contains(EventId.WARM_UP_PREFIX)));
    }

    /** A batch of the join step's joins, or one of its joins as the stub records it. */
    private static boolean isWarmUpJoin(RecordedRequest r) {
        return r.method().equals("POST")
                && (JOIN_BATCH.matcher(r.path()).matches()
                        || r.path().matches("/events/" + Pattern.quote(EventId.WARM_UP_PREFIX) + "[0-9a-f]+/queue"));
    }

    @Test
    void onlyAWarmUpsOwnEventCanBeHeldAsASnapshot() {
        EventId sale = new EventId("sale-" + System.nanoTime());
        QueueSnapshot held = new QueueSnapshot(
                sale.value(),
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                10,
                0L,
                null,
                true,
                0L,
                0L,
                List.of(),
                Instant.now(),
                JoinGate.OPEN,
                List.of(),
                null,
                null,
                null);
        assertThatThrownBy(() -> snapshots.holdWarmUp(sale, held)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> snapshots.holdWarmUp(EventId.warmUp(), held))
                .as("nor another event's snapshot under a warm-up's id")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Probe {

        /** Looks at the gateway's health on its first call and fails on its second. */
        @Bean
        WarmupStep healthProbe(Environment environment) {
            return new WarmupStep() {
                @Override
                public String name() {
                    return "health probe";
                }

                @Override
                public void call(int iteration) throws Exception {
                    if (iteration > 0) {
                        throw new IllegalStateException("a warm-up step that breaks");
                    }
                    for (String probe : PROBED) {
                        DURING.put(probe, get(environment, probe));
                    }
                }
            };
        }
    }

    /** {@code probe}: the property naming the port, a space, the path. */
    private static int get(Environment environment, String probe) throws Exception {
        String[] portAndPath = probe.split(" ");
        String port = environment.getRequiredProperty(portAndPath[0]);
        // a client of its own for each probe, with a bound: a kept-alive connection the gateway closed while it
        // started once left a probe waiting for ever in CI
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        return http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + portAndPath[1]))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
