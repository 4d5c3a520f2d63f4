package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ./waitroom run --replicas 2} as a test: two gateways, two queue-services and two coordinators, each pair
 * behind the launcher's round-robin proxy on the service's port (booking once), every caller going through the
 * proxies. A short on-sale rehearsal runs across them; the invariants are read from the durable stores, and each
 * instance's own metrics show that it served part of the sale.
 */
@StackTest
class ReplicasTests {

    private static final int CEILING = 15;
    private static final int VISITORS = 200;
    /** Metrics that count the work an instance did: neither the gateway nor the queue-service observes http.server.requests on its hot path. */
    private static final Map<String, List<String>> WORK = Map.of(
            "gateway-service", List.of("waitroom_gateway_status_polls_total", "waitroom_gateway_visitor_cookies_total"),
            "queue-service", List.of("waitroom_queue_joins_total", "waitroom_queue_status_requests_total"),
            "admission-coordinator", List.of("http_server_requests_seconds_count"));

    private static LocalStack stack;
    private static Path dataDir;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    @BeforeAll
    static void startStack() throws Exception {
        dataDir = Files.createTempDirectory("waitroom-replicas");
        int[] ports = TestPorts.free(12);
        StackConfig config = TestStacks.config(dataDir, ports, StackConfig.ExternalStores.none())
                .withInstances("gateway-service", List.of(ports[6], ports[7]))
                .withInstances("queue-service", List.of(ports[8], ports[9]))
                .withInstances("admission-coordinator", List.of(ports[10], ports[11]))
                // its sale pays orders through booking's payment simulator
                .withSimulations(true);
        stack = LocalStack.start(config);
    }

    @AfterAll
    static void stopStack() throws IOException {
        if (stack != null) {
            stack.close();
        }
        // The instances' logs stay with the build output for a reader of a failure; the stores do not.
        TestStacks.keepLogsAndDelete(dataDir, "replicas-logs");
    }

    @Test
    void aSaleAcrossTwoReplicasOfEachServiceKeepsEveryInvariantAndReachesEveryInstance() throws Exception {
        assertThat(stack.processes().keySet())
                .containsExactlyInAnyOrder(
                        "gateway-service",
                        "gateway-service-2",
                        "queue-service",
                        "queue-service-2",
                        "admission-coordinator",
                        "admission-coordinator-2",
                        "booking-service");
        Map<String, Double> workBefore = workPerInstance();
        String e = "replicas-" + UUID.randomUUID().toString().substring(0, 8);
        createSale(e);
        DurableState durable = new DurableState(stack);
        LiveGrantSampler sampler = new LiveGrantSampler(durable, e, CEILING);
        Map<String, Object> figures = new LinkedHashMap<>();
        try (Crowd crowd = new Crowd(stack.gatewayUrl(), e, 0.5)) {
            crowd.join(VISITORS);
            crowd.start();
            // Capacity turns over: offers, claims, purchases and leaves through every replica.
            try {
                await().atMost(Duration.ofSeconds(150))
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> durable.grantsOffered(e) >= 2L * CEILING && durable.paidOrders(e) >= 3);
            } finally {
                crowd.close();
                figures.put("crowd", crowd.counters());
                figures.put(
                        "offers (grants) / paid orders so far",
                        durable.grantsOffered(e) + " / " + durable.paidOrders(e));
                System.out.println("Waitroom replicas rehearsal, sale " + figures);
            }
            assertThat(crowd.visitors())
                    .as("every visitor joined and holds a receipt")
                    .allSatisfy(v -> assertThat(v.receipt).isNotNull());
            assertEveryVisitorKnownToBothGateways(crowd, e);
        } finally {
            sampler.close();
        }
        Map<String, Long> counts = queueCounts(e);
        long places = counts.get("waiting")
                + counts.get("offered")
                + counts.get("active")
                + counts.get("completed")
                + counts.get("left")
                + counts.get("expired");
        Map<String, Double> work = workPerInstance();
        work.replaceAll((instance, total) -> total - workBefore.getOrDefault(instance, 0.0));
        figures.put("offers (grants)", durable.grantsOffered(e));
        figures.put("paid orders", durable.paidOrders(e));
        figures.put(
                "max live grants sampled / ceiling",
                sampler.max.get() + " / " + CEILING + " (" + sampler.samples.get() + " samples)");
        figures.put("queue entries by state", counts);
        figures.put("requests served per instance", work);
        stack.proxies()
                .forEach(p -> figures.put("connections via the " + p.service() + " proxy", p.connectionsPerBackend()));
        System.out.println("Waitroom replicas rehearsal\n"
                + figures.entrySet().stream()
                        .map(f -> String.format("  %-40s %s", f.getKey(), f.getValue()))
                        .reduce((a, b) -> a + "\n" + b)
                        .orElse(""));

        assertThat(sampler.samples.get()).isPositive();
        assertThat(sampler.max.get()).as("live grants never above the ceiling").isLessThanOrEqualTo(CEILING);
        assertThat(durable.invariantViolations(e, CEILING))
                .as("durable invariants")
                .isEmpty();
        assertThat(durable.seatsSoldTwice(e)).isZero();
        assertThat(counts.get("joins")).isEqualTo(VISITORS);
        assertThat(places)
                .as("every joined visitor is in exactly one state: no place lost")
                .isEqualTo(VISITORS);
        for (String instance : work.keySet()) {
            assertThat(work.get(instance)).as("requests served by " + instance).isPositive();
        }
        for (RoundRobinProxy proxy : stack.proxies()) {
            assertThat(proxy.connectionsPerBackend().values())
                    .as(proxy.service() + " proxy")
                    .allSatisfy(n -> assertThat(n).isPositive());
        }
    }

    /**
     * Cookies and queue tickets are signed with keys every gateway shares: any instance answers for any waiting
     * visitor. (A visitor who claimed has a new visitor id since, which no longer owns the queue entry it waited with.)
     */
    private static void assertEveryVisitorKnownToBothGateways(Crowd crowd, String e) {
        List<Integer> gateways = stack.config().instancePorts().get("gateway-service");
        List<Crowd.Visitor> waiting = crowd.visitors().stream()
                .filter(v -> v.token == null && v.receipt != null)
                .limit(20)
                .toList();
        assertThat(waiting).as("visitors who never claimed").hasSize(20);
        for (Crowd.Visitor v : waiting) {
            List<String> receipts = new ArrayList<>();
            for (int port : gateways) {
                HttpRequest request = HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port + "/events/" + e + "/queue/status"))
                        .timeout(Duration.ofSeconds(10))
                        .build();
                java.util.concurrent.atomic.AtomicReference<HttpResponse<String>> last =
                        new java.util.concurrent.atomic.AtomicReference<>();
                HttpResponse<String> status;
                try {
                    // within the gateway's per-visitor status limit (2 a second)
                    status = await().atMost(Duration.ofSeconds(10))
                            .pollInterval(Duration.ofMillis(600))
                            .until(
                                    () -> {
                                        HttpResponse<String> r =
                                                v.http.send(request, HttpResponse.BodyHandlers.ofString());
                                        last.set(r);
                                        return r;
                                    },
                                    r -> r.statusCode() == 200);
                } catch (org.awaitility.core.ConditionTimeoutException timedOut) {
                    HttpResponse<String> r = last.get();
                    throw new AssertionError(
                            "status on gateway port " + port + " never 200; last answer: "
                                    + (r == null
                                            ? "none"
                                            : r.statusCode() + " " + r.headers().map() + " " + r.body()),
                            timedOut);
                }
                receipts.add(Crowd.text(status.body(), "receipt"));
            }
            assertThat(receipts).as("receipt from each gateway").containsOnly(v.receipt);
        }
    }

    private static void createSale(String e) throws Exception {
        String event = """
                {"eventId":"%s","name":"Replicas rehearsal","opensAt":null,"maxActiveSessions":%d,"maxAdmissionsPerSecond":8,
                 "offerTtlSeconds":20,"sessionTtlSeconds":60,"sessionMaxSeconds":120,"presaleOrdering":"RANDOM",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(e, CEILING);
        HttpResponse<String> created = Launcher.send(
                HTTP,
                "POST",
                stack.gatewayUrl() + "/admin/events",
                event,
                stack.secrets().opsToken());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> inventory = Launcher.send(
                HTTP,
                "PUT",
                stack.gatewayUrl() + "/admin/events/" + e + "/inventory",
                "{\"categories\":[{\"name\":\"Floor\",\"seats\":100,\"priceCents\":5000}]}",
                stack.secrets().opsToken());
        assertThat(inventory.statusCode() / 100).as(inventory.body()).isEqualTo(2);
    }

    /** The queue-service's own count of entries by state, through its proxy, asked as the coordinator asks it. */
    private static Map<String, Long> queueCounts(String e) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + stack.config().queuePort() + "/internal/events/" + e + "/counts"))
                .header("X-Waitroom-Internal", stack.secrets().credential(ServiceSecrets.Service.COORDINATOR))
                .timeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<String, Long> counts = new LinkedHashMap<>();
        Matcher m = Pattern.compile("\"(\\w+)\"\\s*:\\s*(\\d+)").matcher(response.body());
        while (m.find()) {
            counts.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return counts;
    }

    /** For each instance of a replicated service, the sum of its work counters (actuator calls excluded). */
    private static Map<String, Double> workPerInstance() throws Exception {
        Map<String, Double> work = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> process : stack.config().servicePorts().entrySet()) {
            List<String> metrics = WORK.get(StackConfig.serviceOf(process.getKey()));
            if (metrics == null) {
                continue;
            }
            HttpResponse<String> prometheus = HTTP.send(
                    HttpRequest.newBuilder(URI.create(stack.managementUrl(process.getKey()) + "/actuator/prometheus"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            double total = 0;
            for (String line : prometheus.body().split("\n")) {
                if (metrics.stream().anyMatch(name -> line.startsWith(name + "{"))
                        && !line.contains("uri=\"/actuator")) {
                    total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            work.put(process.getKey(), total);
        }
        return work;
    }
}
