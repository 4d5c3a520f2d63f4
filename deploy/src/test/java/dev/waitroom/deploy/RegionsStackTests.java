package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./waitroom run --regions 2} as a test: two regions on free ports, each with its own gateway, queue-service,
 * coordinator and Redis, one PostgreSQL and one booking. Each region's gateway serves its page and health, the
 * process list {@code ./waitroom status} prints names every process healthy, and a visitor who joins in one region
 * has a place in that region's queue only.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@StackTest
@ExtendWith(SharedStack.class)
class RegionsStackTests {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private static LocalStack stack;
    private static Path dataDir;

    @BeforeAll
    static void useTheSharedStack(@SharedStack.TwoRegionStack LocalStack shared) {
        stack = shared;
        dataDir = shared.config().dataDir();
    }

    @Test
    @Order(1)
    void eachRegionRunsItsOwnProcessesAndEveryOneIsHealthy() throws Exception {
        assertThat(stack.processes().keySet())
                .containsExactlyInAnyOrder(
                        "gateway-service",
                        "queue-service",
                        "admission-coordinator",
                        "r2.gateway-service",
                        "r2.queue-service",
                        "r2.admission-coordinator",
                        "booking-service");
        List<StackProcesses.Entry> entries = StackProcesses.of(stack);
        List<String> report = StackProcesses.report(entries, dataDir);
        System.out.println("./waitroom status, two regions:\n" + String.join("\n", report));
        assertThat(entries.stream().filter(e -> e.kind().equals("service")))
                .hasSize(7)
                .allSatisfy(e -> assertThat(e.pid()).isPositive());
        assertThat(entries.stream().filter(e -> e.kind().equals("store")).map(StackProcesses.Entry::name))
                .containsExactly("postgres", "redis-r1", "redis-r2");
        assertThat(report.subList(1, report.size()))
                .as("every service UP on its management port, every store listening")
                .allSatisfy(line -> assertThat(line).containsAnyOf(" UP", " listening"));
        assertThat(entries)
                .filteredOn(e -> e.kind().equals("service"))
                .allSatisfy(e -> assertThat(StackProcesses.live(e, dataDir)).isPresent());
    }

    @Test
    @Order(2)
    void eachRegionsGatewayServesTheWaitingPageAndItsHealth() throws Exception {
        String e = "regions-" + UUID.randomUUID().toString().substring(0, 8);
        createEvent(e);
        for (String region : List.of(TwoRegions.R1, TwoRegions.R2)) {
            String gateway = stack.gatewayUrl(region);
            HttpResponse<String> health = get(gateway + "/actuator/health");
            assertThat(health.statusCode()).as(region + " health").isEqualTo(200);
            assertThat(health.body()).as(region).contains("\"UP\"");
            HttpResponse<String> page = get(gateway + "/events/" + e);
            assertThat(page.statusCode()).as(region + " page").isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type").orElse("")).contains("text/html");
            // The event reaches region r2's queue through r2's own coordinator (it was created through r1).
            HttpResponse<String> status = await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> get(gateway + "/events/" + e + "/status"), r -> r.statusCode() == 200);
            assertThat(status.body()).as(region + " public status").contains("\"" + e + "\"");
        }
    }

    @Test
    @Order(3)
    void aVisitorWhoJoinsInOneRegionHasAPlaceInThatRegionsQueueOnly() throws Exception {
        String e = "regions-" + UUID.randomUUID().toString().substring(0, 8);
        createEvent(e);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> get(stack.gatewayUrl(TwoRegions.R2) + "/events/" + e + "/status")
                                .statusCode()
                        == 200);
        try (Crowd inRegion2 = new Crowd(stack.gatewayUrl(TwoRegions.R2), e, 0)) {
            inRegion2.join(3);
            assertThat(inRegion2.visitors())
                    .allSatisfy(v -> assertThat(v.receipt).isNotNull());
        }
        assertThat(TwoRegions.queueCounts(stack, TwoRegions.R2, e)).containsEntry("joins", 3L);
        assertThat(TwoRegions.queueCounts(stack, TwoRegions.R1, e).getOrDefault("joins", 0L))
                .isZero();
        HttpResponse<String> regions =
                TwoRegions.ops(stack, TwoRegions.R2, "GET", "/admin/events/" + e + "/regions", null);
        assertThat(regions.statusCode()).as(regions.body()).isEqualTo(200);
        System.out.println("GET /admin/events/" + e + "/regions through r2's gateway: " + regions.body());
    }

    private static void createEvent(String e) throws Exception {
        // opens in an hour: nobody is offered, the visitors stay in the pre-sale group
        String event = """
                {"eventId":"%s","name":"Regions","opensAt":"%s","maxActiveSessions":10,"maxAdmissionsPerSecond":2,
                 "offerTtlSeconds":20,"sessionTtlSeconds":60,"sessionMaxSeconds":120,"presaleOrdering":"RANDOM",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(
                e, java.time.Instant.now().plusSeconds(3600).truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        HttpResponse<String> created = TwoRegions.ops(stack, TwoRegions.R1, "POST", "/admin/events", event);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
