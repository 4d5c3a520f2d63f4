package dev.waitroom.booking.signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.waitroom.booking.TestSecrets;
import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.testsupport.RealStoresInitializer;
import dev.waitroom.tokens.JwksSource;
import dev.waitroom.tokens.KeyRing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Booking's calls to the coordinator, as the application wires them (Spring Boot's observed {@code RestClient.Builder})
 * carry W3C {@code traceparent}: the signal ticker's health reports reach a stand-in coordinator each in a trace of
 * its own, with the internal credential and no hand-made request id.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"waitroom.test.database=booking", "waitroom.booking.signals.interval=200ms"})
@ContextConfiguration(initializers = {RealStoresInitializer.class, TestSecrets.class})
@Import(CoordinatorCallTracingTests.Keys.class)
class CoordinatorCallTracingTests {

    static final String TRACEPARENT = "00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]";

    /** Headers of every health report the stand-in coordinator received, names lower-cased. */
    static final List<Map<String, String>> HEALTH = new CopyOnWriteArrayList<>();

    static final HttpServer COORDINATOR = start();

    static HttpServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                if (exchange.getRequestURI().getPath().equals(CoordinatorPaths.HEALTH)) {
                    Map<String, String> headers = new TreeMap<>();
                    exchange.getRequestHeaders()
                            .forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
                    HEALTH.add(headers);
                }
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Keys {

        @Bean
        @Primary
        JwksSource testJwks() {
            return KeyRing.generate(Clock.systemUTC())::publicJwksJson;
        }
    }

    @DynamicPropertySource
    static void coordinatorUrl(DynamicPropertyRegistry registry) {
        registry.add(
                "waitroom.services.coordinator-url",
                () -> "http://127.0.0.1:" + COORDINATOR.getAddress().getPort());
    }

    @AfterAll
    static void stop() {
        COORDINATOR.stop(0);
    }

    @Test
    void healthReportsCarryATraceparentEachInATraceOfItsOwn() {
        await().atMost(Duration.ofSeconds(30)).until(() -> HEALTH.size() >= 2);

        List<Map<String, String>> reports = List.copyOf(HEALTH);
        assertThat(reports).allSatisfy(headers -> {
            assertThat(headers.get("traceparent")).isNotNull().matches(TRACEPARENT);
            assertThat(headers.get("x-waitroom-internal")).isEqualTo(TestSecrets.BOOKING.credential());
            assertThat(headers).doesNotContainKey("x-request-id");
        });
        assertThat(reports.stream().map(headers -> headers.get("traceparent").substring(3, 35)))
                .doesNotHaveDuplicates();
    }
}
