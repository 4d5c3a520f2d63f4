package dev.waitroom.coordinator.grants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.support.RandomSecretsInitializer;
import dev.waitroom.coordinator.support.TestStores;
import dev.waitroom.testsupport.RealStoresInitializer;
import dev.waitroom.web.warmup.WarmupStep;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ContextConfiguration;

/**
 * The warm-up before ready (docs/operating/running.md, "Warm-up before ready") on the real coordinator against the
 * real PostgreSQL: readiness and the overall health are down while it runs and up after, liveness is up throughout,
 * no row of its private events remains, and a step that fails (the probe below, after it has looked) still lets the
 * service become ready. Every other test runs with the warm-up off (src/test/resources/application.properties).
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "waitroom.test.database=coordinator",
            "waitroom.coordinator.ticker-enabled=false",
            "waitroom.keys.publish-lead=0s",
            "waitroom.warmup.enabled=true",
            "waitroom.warmup.iterations=40",
            "waitroom.warmup.duration=60s"
        })
@ContextConfiguration(initializers = {RealStoresInitializer.class, RandomSecretsInitializer.class})
@Import({TestStores.class, AdmissionWarmupTests.Probe.class})
class AdmissionWarmupTests {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** What the management port answered while the warm-up ran: path -> status code. */
    private static final Map<String, Integer> DURING = new ConcurrentHashMap<>();

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Environment environment;

    @Test
    void readinessWaitsForTheWarmUpWhichLeavesNoRowAndSurvivesAFailingStep(CapturedOutput output) throws Exception {
        assertThat(DURING)
                .containsEntry("/actuator/health/readiness", 503)
                .containsEntry("/actuator/health", 503)
                .containsEntry("/actuator/health/liveness", 200);
        assertThat(output).contains("Warm-up step coordinator allocations, claims and tokens: 40 calls");
        assertThat(output).contains("Warm-up step health probe failed after 1 calls");
        assertThat(get(environment, "/actuator/health/readiness")).isEqualTo(200);
        assertThat(get(environment, "/actuator/health")).isEqualTo(200);
        for (String table : List.of("events", "leases", "grants", "mode_changes")) {
            assertThat(jdbc.sql("select count(*) from " + table + " where event_id like :p")
                            .param("p", EventId.WARM_UP_PREFIX + "%")
                            .query(Long.class)
                            .single())
                    .as(table)
                    .isZero();
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Probe {

        /** Looks at the management port on its first call and fails on its second. */
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
                    for (String path :
                            List.of("/actuator/health/readiness", "/actuator/health", "/actuator/health/liveness")) {
                        DURING.put(path, get(environment, path));
                    }
                }
            };
        }
    }

    private static int get(Environment environment, String path) throws Exception {
        String port = environment.getProperty("local.management.port");
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
