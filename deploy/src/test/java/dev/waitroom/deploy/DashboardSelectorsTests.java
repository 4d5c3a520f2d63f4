package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Dashboards that cannot silently break (issue #19): on the launcher's real stack (the shared plain one), runs a short sale
 * through the gateway (an event with seats, visitors who join, poll, are offered, claim, hold and buy, the payment
 * settled by booking's simulator, a moment of booking errors through its fault injection), scrapes every service's
 * {@code /actuator/prometheus} on its management port as Prometheus would (job {@code waitroom}, instance
 * {@code <service>:<port>}), and requires every vector selector of every dashboard panel, template variable and alert
 * rule ({@link ObservabilityQueries}, read by {@link PromQl}) to match at least one scraped series. A failure lists
 * each selector that matched nothing, where it is used, and what series of that name there were.
 *
 * <p>{@link #ONLY_UNDER_CONDITIONS} lists the few selectors whose series exist only under a condition a short sale
 * does not reach, each with why.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@StackTest
@ExtendWith(SharedStack.class)
@SharedStack.DisturbsIt
class DashboardSelectorsTests {

    /**
     * Selectors not required to match, as the check writes them (Grafana's variables replaced), each with why. Keep it
     * short: a selector belongs here only when its series cannot exist in a healthy short sale on the launcher's stack.
     */
    private static final Map<String, String> ONLY_UNDER_CONDITIONS = Map.of(
            "waitroom_queue_estimates_total{event=~\".*\",outcome!=\"inside\"}",
            "early and late estimates exist only once a real wait fell outside the range first shown: a short sale's"
                    + " few waits fall inside (the panel is rightly empty then)",
            "waitroom_coordinator_region_budget_slots{event=~\".*\"}",
            "published per region only when regions are configured (issue #20); the launcher's stack has none",
            "waitroom_coordinator_region_budget_used{event=~\".*\"}",
            "published per region only when regions are configured (issue #20); the launcher's stack has none",
            "waitroom_coordinator_region_budget_frozen",
            "published per region only when regions are configured (issue #20); the launcher's stack has none");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private static LocalStack stack;

    /**
     * The shared plain stack: booking's payment simulator settles the orders, and its fault injection makes the 5xx
     * series the error rules read (which is why this class runs last of those sharing it, {@link SharedStack.DisturbsIt}).
     */
    @BeforeAll
    static void useTheSharedStack(LocalStack shared) {
        stack = shared;
    }

    @Test
    @Order(1)
    void everyDashboardPanelAndAlertRuleSelectsARealSeries() throws Exception {
        List<ObservabilityQueries.Use> uses = ObservabilityQueries.all();
        Map<String, List<String>> usedBy = new TreeMap<>();
        Map<String, PromQl.Selector> selectors = new LinkedHashMap<>();
        for (ObservabilityQueries.Use use : uses) {
            for (PromQl.Selector selector : PromQl.selectors(use.sent())) {
                selectors.putIfAbsent(selector.toString(), selector);
                usedBy.computeIfAbsent(selector.toString(), k -> new ArrayList<>())
                        .add(use.where());
            }
        }
        assertThat(ONLY_UNDER_CONDITIONS.keySet())
                .as("the allow-list names only selectors the dashboard or the rules use")
                .allSatisfy(allowed -> assertThat(selectors).containsKey(allowed));

        Crowd crowd = sale();
        printPayloads("after the sale");
        try {
            await().atMost(Duration.ofSeconds(240))
                    .pollInterval(Duration.ofSeconds(3))
                    .untilAsserted(() -> {
                        Map<String, List<PrometheusText.Series>> scraped = scrapeAll(null);
                        List<PrometheusText.Series> all =
                                scraped.values().stream().flatMap(List::stream).toList();
                        List<String> unmatched = new ArrayList<>();
                        for (Map.Entry<String, PromQl.Selector> s : selectors.entrySet()) {
                            PromQl.Selector selector = s.getValue();
                            if (ONLY_UNDER_CONDITIONS.containsKey(s.getKey())
                                    || all.stream().anyMatch(x -> selector.matches(x.name(), x.labels()))) {
                                continue;
                            }
                            List<String> sameName = all.stream()
                                    .filter(x -> x.name().equals(selector.metric()))
                                    .limit(3)
                                    .map(PrometheusText.Series::toString)
                                    .toList();
                            unmatched.add(s.getKey() + "\n      used by " + usedBy.get(s.getKey())
                                    + "\n      series of that name: " + (sameName.isEmpty() ? "none" : sameName));
                        }
                        assertThat(unmatched)
                                .as(
                                        "selectors matching no series (crowd %s):%n  %s",
                                        crowd.counters(), String.join("\n  ", unmatched))
                                .isEmpty();
                    });
        } finally {
            crowd.close();
        }
        System.out.println("dashboard selectors: " + selectors.size() + " distinct selectors in " + uses.size()
                + " expressions, each matched; allowed to match nothing: " + ONLY_UNDER_CONDITIONS.keySet());
        printPayloads("when every selector matched");
    }

    /**
     * The edge's status answers are not timed (the hot path stays as cheap as before the request histograms): the
     * gateway times only what it forwards, so its {@code queue-status} route counts no more requests than the polls it
     * forwarded, while the edge answered many. Runs after the sale (order 1).
     */
    @Test
    @Order(2)
    void theGatewayTimesForwardedRequestsButNotTheEdgesAnswers() throws Exception {
        await().atMost(Duration.ofSeconds(240))
                .pollInterval(Duration.ofSeconds(3))
                .untilAsserted(() -> {
                    List<PrometheusText.Series> gateway = scrapeAll(null).get(LocalStack.GATEWAY);
                    double edge = sum(gateway, "waitroom_gateway_status_polls_total", "answered", "edge");
                    double forwarded = gateway.stream()
                            .filter(x -> x.name().equals("waitroom_gateway_status_polls_total")
                                    && !"edge".equals(x.labels().get("answered")))
                            .mapToDouble(PrometheusText.Series::value)
                            .sum();
                    double timed =
                            sum(gateway, "spring_cloud_gateway_requests_seconds_count", "routeId", "queue-status");
                    assertThat(edge).as("status polls answered at the edge").isGreaterThan(0);
                    assertThat(timed)
                            .as("status polls timed by the gateway (edge %s, forwarded %s)", edge, forwarded)
                            .isPositive()
                            .isLessThanOrEqualTo(forwarded);
                });
    }

    private static double sum(List<PrometheusText.Series> series, String name, String label, String value) {
        return series.stream()
                .filter(x -> x.name().equals(name) && value.equals(x.labels().get(label)))
                .mapToDouble(PrometheusText.Series::value)
                .sum();
    }

    /** Each service's Prometheus payload: its size and series count (the cost of what it publishes per scrape). */
    private static void printPayloads(String when) throws Exception {
        Map<String, Integer> bytes = new LinkedHashMap<>();
        Map<String, List<PrometheusText.Series>> scraped = scrapeAll(bytes);
        Map<String, Integer> histogramBytes = histogramBytes();
        scraped.forEach((process, series) -> System.out.println("prometheus payload " + when + ", " + process + ": "
                + bytes.get(process) + " bytes, " + series.size() + " series, of which request histogram buckets "
                + histogramBytes.get(process) + " bytes"));
    }

    /** Per service, the bytes of its request-latency bucket lines (the cost of the request histograms). */
    private static Map<String, Integer> histogramBytes() throws Exception {
        Map<String, Integer> bytes = new TreeMap<>();
        for (String process : stack.config().servicePorts().keySet()) {
            String body = HTTP.send(
                            HttpRequest.newBuilder(URI.create(stack.managementUrl(process) + "/actuator/prometheus"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            bytes.put(
                    process,
                    body.lines()
                            .filter(l -> l.startsWith("http_server_requests_seconds_bucket")
                                    || l.startsWith("spring_cloud_gateway_requests_seconds_bucket"))
                            .mapToInt(l -> l.length() + 1)
                            .sum());
        }
        return bytes;
    }

    /** A short sale through the gateway; returns once an order was placed and booking answered shop calls with 503. */
    private Crowd sale() throws Exception {
        String e = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        String event = """
                {"eventId":"%s","name":"Dashboard check","opensAt":null,"maxActiveSessions":2,"maxAdmissionsPerSecond":4,
                 "offerTtlSeconds":30,"sessionTtlSeconds":60,"sessionMaxSeconds":120,"presaleOrdering":"RANDOM",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(e);
        HttpResponse<String> created = ops("POST", "/admin/events", event);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> inventory = ops(
                "PUT",
                "/admin/events/" + e + "/inventory",
                "{\"categories\":[{\"name\":\"Floor\",\"seats\":20,\"priceCents\":5000},"
                        + "{\"name\":\"Balcony\",\"seats\":10,\"priceCents\":3000}]}");
        assertThat(inventory.statusCode() / 100).as(inventory.body()).isEqualTo(2);
        Crowd crowd = new Crowd(stack.gatewayUrl(), e, 1.0);
        crowd.join(12);
        crowd.start();
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(crowd.counters().keySet())
                        .as("crowd %s", crowd.counters())
                        .anyMatch(k -> k.matches("order\\.20[012]")));
        // a moment of booking errors: every shop call answers 503 until one did
        assertThat(ops("PUT", "/admin/booking/faults", "{\"errorRate\":1.0}").statusCode() / 100)
                .isEqualTo(2);
        try {
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(crowd.counters())
                            .as("a shop call answered 503 during the fault")
                            .containsKey("seats.503"));
        } finally {
            ops("DELETE", "/admin/booking/faults", null);
        }
        return crowd;
    }

    /** Every service's series, by process; {@code bytes}, when given, gets each payload's size. */
    private static Map<String, List<PrometheusText.Series>> scrapeAll(Map<String, Integer> bytes) throws Exception {
        Map<String, List<PrometheusText.Series>> scraped = new TreeMap<>();
        for (String process : stack.config().servicePorts().keySet()) {
            String url = stack.managementUrl(process) + "/actuator/prometheus";
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(url).isEqualTo(200);
            if (bytes != null) {
                bytes.put(process, response.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
            }
            String instance = process + ":" + stack.config().managementPorts().get(process);
            scraped.put(
                    process, PrometheusText.parse(response.body(), Map.of("job", "waitroom", "instance", instance)));
        }
        return scraped;
    }

    private static HttpResponse<String> ops(String method, String path, String body) throws Exception {
        return TestStacks.ops(stack, stack.gatewayUrl(), method, path, body);
    }
}
