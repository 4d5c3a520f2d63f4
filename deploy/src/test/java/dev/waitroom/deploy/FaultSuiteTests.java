package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.testsupport.AllAtOnce;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Breaks the running system on purpose: real services as processes (two coordinators), real PostgreSQL and Redis,
 * a sale driven through the gateway, one fault at a time. After each scenario the invariants of
 * docs/design/architecture.md#invariants are checked from durable state and from samples taken during it, and the figures are
 * printed per scenario.
 *
 * <p>{@code -Dfaults.profile=long} runs more kills and more visitors; the default short profile fits CI.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@StackTest
class FaultSuiteTests {

    private static final boolean LONG = "long".equals(System.getProperty("faults.profile"));
    private static final int CEILING = 12;
    private static final Map<String, Map<String, Object>> REPORT = new LinkedHashMap<>();
    private static LocalStack stack;
    private static DurableState durable;
    private static HttpClient ops;
    private static Path dataDir;

    private Crowd crowd;
    private LiveGrantSampler sampler;

    @BeforeAll
    static void startStack() throws Exception {
        dataDir = Files.createTempDirectory("waitroom-faults");
        int[] ports = TestPorts.free(8);
        // The fault suite switches booking's test doubles on explicitly: fault injection and the payment simulator.
        stack = LocalStack.start(TestStacks.config(dataDir, ports, StackConfig.ExternalStores.none())
                .withCoordinators(List.of(ports[6], ports[7]))
                .withSimulations(true));
        durable = new DurableState(stack);
        ops = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    }

    @AfterAll
    static void stopStack() throws IOException {
        if (stack != null) {
            stack.close();
        }
        TestStacks.deleteTree(dataDir);
        StringBuilder text = new StringBuilder("Waitroom fault suite (" + (LONG ? "long" : "short") + " profile)\n");
        REPORT.forEach((scenario, figures) -> {
            text.append("  ").append(scenario).append('\n');
            figures.forEach((k, v) -> text.append(String.format("      %-34s %s%n", k, v)));
        });
        System.out.println(text);
        Path out = Path.of("target", "fault-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, text);
    }

    @AfterEach
    void stopCrowd() throws Exception {
        if (sampler != null) {
            sampler.close();
        }
        if (crowd != null) {
            crowd.close();
        }
    }

    @Test
    @Order(1)
    void killingTheLeaderRepeatedlyLosesNoPlaceAndNoSlot() throws Exception {
        // Offers flow whether or not anyone polls, so the visitors only join: the ceiling is high enough that
        // capacity is free at every kill and "admission resumed" is visible as a new offer.
        int kills = LONG ? 6 : 2;
        String e = newSale(LONG ? 600 : 300, 3, LONG ? 600 : 250, 60, false);
        List<Long> resumeMillis = new ArrayList<>();
        for (int i = 0; i < kills; i++) {
            String leader = awaitLeader(e);
            Instant killedAt = Instant.now();
            stack.signal(leader, "KILL");
            try {
                resumeMillis.add(awaitOffersAfter(e, killedAt, Duration.ofSeconds(10)));
            } finally {
                stack.restart(leader);
            }
        }
        Map<String, Object> figures = finish("kill -9 of the leading coordinator", e);
        figures.put("kills", kills);
        figures.put("offers resumed after (ms)", resumeMillis);
        assertThat(resumeMillis).allSatisfy(ms -> assertThat(ms).isLessThanOrEqualTo(10_000));
    }

    @Test
    @Order(2)
    void aPausedFormerLeaderIsFencedOff() throws Exception {
        String e = newSale(300, 3, 200, 60, false);
        String leader = awaitLeader(e);
        long oldGeneration = (long) durable.lease(e).get("generation");
        Instant stoppedAt = Instant.now();
        stack.signal(leader, "STOP");
        long resumed;
        try {
            resumed = awaitOffersAfter(e, stoppedAt.plusSeconds(1), Duration.ofSeconds(12));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> (long) durable.lease(e).get("generation") > oldGeneration);
        } finally {
            stack.signal(leader, "CONT");
        }
        Instant continuedAt = Instant.now();
        // Give the former leader time to attempt whatever it had in flight.
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> true);
        long staleWrites = durable.grantsWithGenerationOfferedAfter(e, oldGeneration, continuedAt.minusSeconds(1));
        Map<String, Object> figures = finish("SIGSTOP of the leader past its lease, then SIGCONT", e);
        figures.put("old generation", oldGeneration);
        figures.put("new generation", durable.lease(e).get("generation"));
        figures.put("offers resumed by the other instance after (ms)", resumed);
        figures.put("grants written with the old generation after SIGCONT", staleWrites);
        assertThat(staleWrites).isZero();
    }

    @Test
    @Order(3)
    void aRedisRestartKeepsEveryPlace() throws Exception {
        String e = newSaleWithAnOffer(CEILING, 2, 80, 60, true);
        Map<Crowd.Visitor, String> receipts = new LinkedHashMap<>();
        crowd.visitors().forEach(v -> receipts.put(v, v.receipt));
        stack.stopRedis();
        Crowd.Visitor newcomer = new Crowd.Visitor();
        int joinWhileDown =
                crowd.send(newcomer, "POST", "/events/" + e + "/queue", "{}").statusCode();
        stack.startRedis();
        // Every visitor asked at once, each as the visitor that joined (the id its browser holds; claims do not change
        // it) and within its own status limit (2 a second, which the crowd's own polls share): one after another, the
        // waits for a free poll added up to a minute.
        List<Boolean> keptEach = AllAtOnce.call(receipts.entrySet().stream()
                .map(entry -> (Callable<Boolean>) () -> {
                    HttpResponse<String> status = await().atMost(Duration.ofSeconds(15))
                            .pollInterval(Duration.ofMillis(700))
                            .until(() -> crowd.statusAsJoined(entry.getKey()), r -> r.statusCode() == 200);
                    return entry.getValue() != null && entry.getValue().equals(Crowd.text(status.body(), "receipt"));
                })
                .toList());
        long kept = keptEach.stream().filter(Boolean::booleanValue).count();
        Map<String, Object> figures = finish("Redis restart with its append-only file", e);
        figures.put("places before / kept after", receipts.size() + " / " + kept);
        figures.put("join while Redis was down (HTTP)", joinWhileDown);
        assertThat(kept).isEqualTo(receipts.size());
        assertThat(joinWhileDown).isIn(503, 0);
    }

    @Test
    @Order(4)
    void aPostgresRestartPausesAdmissionAndLosesNothing() throws Exception {
        String e = newSaleWithAnOffer(60, 4, 200, 60, false);
        long before = durable.grantsOffered(e);
        stack.stopPostgres();
        Crowd.Visitor newcomer = new Crowd.Visitor();
        int joinWhileDown =
                crowd.send(newcomer, "POST", "/events/" + e + "/queue", "{}").statusCode();
        int statusWhileDown = crowd.send(crowd.visitors().get(0), "GET", "/events/" + e + "/queue/status", null)
                .statusCode();
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> true);
        Instant restartedAt = Instant.now();
        stack.startPostgres();
        long resumed = awaitOffersAfter(e, restartedAt, Duration.ofSeconds(30));
        Map<String, Object> figures = finish("PostgreSQL restart", e);
        figures.put("offers before the restart", before);
        figures.put("join / status while PostgreSQL was down (HTTP)", joinWhileDown + " / " + statusWhileDown);
        figures.put("offers resumed after restart (ms)", resumed);
        assertThat(joinWhileDown).isIn(200, 201);
        assertThat(statusWhileDown).isEqualTo(200);
    }

    @Test
    @Order(5)
    void aBookingSlowdownLowersTheAdmissionRateWhichThenRecovers() throws Exception {
        String e = newSaleWithAnOffer(40, 8, 300, 200, true);
        double before = averageRate(e, Duration.ofSeconds(4));
        // fault injection exists because this stack switched booking's test doubles on (a plain run answers 404)
        assertThat(opsCall("PUT", "/admin/booking/faults", "{\"latencyMs\":900,\"errorRate\":0.4}")
                                .statusCode()
                        / 100)
                .isEqualTo(2);
        double during;
        try {
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> admissionRate(e) < before);
            during = averageRate(e, Duration.ofSeconds(3));
        } finally {
            opsCall("DELETE", "/admin/booking/faults", null);
        }
        // the rate that recovered, as read when it did: a second read may already see the next controller window
        java.util.concurrent.atomic.AtomicReference<Double> recovered =
                new java.util.concurrent.atomic.AtomicReference<>();
        await().atMost(Duration.ofSeconds(45))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    recovered.set(admissionRate(e));
                    return recovered.get() > during;
                });
        double after = recovered.get();
        Map<String, Object> figures = finish("booking slowdown and errors", e);
        figures.put(
                "admission rate before / during / after (per s)",
                String.format("%.2f / %.2f / %.2f", before, during, after));
        assertThat(during).isLessThan(before);
        assertThat(after).isGreaterThan(during);
    }

    @Test
    @Order(6)
    void withTheCoordinatorsUnreachableStatusAndJoinsKeepWorkingButNothingIsAdmitted() throws Exception {
        String e = newSale(CEILING, 4, 40, 60, true);
        List<String> coordinators = stack.processes().keySet().stream()
                .filter(s -> s.startsWith(LocalStack.COORDINATOR))
                .toList();
        for (String c : coordinators) {
            stack.signal(c, "STOP");
        }
        int join;
        int status;
        int claim;
        try {
            Crowd.Visitor newcomer = new Crowd.Visitor();
            join = crowd.send(newcomer, "POST", "/events/" + e + "/queue", "{}").statusCode();
            status = crowd.send(newcomer, "GET", "/events/" + e + "/queue/status", null)
                    .statusCode();
            claim = crowd.send(newcomer, "POST", "/events/" + e + "/admission/claim", "{}")
                    .statusCode();
        } finally {
            for (String c : coordinators) {
                stack.signal(c, "CONT");
            }
        }
        Map<String, Object> figures = finish("coordinators unreachable from the gateway", e);
        figures.put("join / status / claim (HTTP)", join + " / " + status + " / " + claim);
        assertThat(join).isIn(200, 201);
        assertThat(status).isEqualTo(200);
        assertThat(claim).isNotIn(200, 201);
    }

    @Test
    @Order(7)
    void anOpsPauseStopsOffersAndSoldOutEndsThem() throws Exception {
        String e = newSaleWithAnOffer(20, 6, 160, 60, true);
        assertThat(opsCall("POST", "/admin/events/" + e + "/pause", "{\"reason\":\"fault suite pause\"}")
                                .statusCode()
                        / 100)
                .isEqualTo(2);
        Instant pausedAt = Instant.now().plusSeconds(1);
        await().pollDelay(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).until(() -> true);
        long offeredWhilePaused = durable.grantsOfferedAfter(e, pausedAt);
        String pausedMode = Crowd.text(
                crowd.send(
                                crowd.visitors().get(crowd.visitors().size() - 1),
                                "GET",
                                "/events/" + e + "/queue/status",
                                null)
                        .body(),
                "mode");
        Instant resumedAt = Instant.now();
        opsCall("POST", "/admin/events/" + e + "/resume", "{\"reason\":\"fault suite resume\"}");
        long resumed = awaitOffersAfter(e, resumedAt, Duration.ofSeconds(15));
        opsCall("POST", "/admin/events/" + e + "/sold-out", "{\"reason\":\"fault suite sold out\"}");
        Instant soldOutAt = Instant.now().plusSeconds(1);
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> true);
        long offeredAfterSoldOut = durable.grantsOfferedAfter(e, soldOutAt);
        String soldOutMode = Crowd.text(
                crowd.send(
                                crowd.visitors().get(crowd.visitors().size() - 1),
                                "GET",
                                "/events/" + e + "/queue/status",
                                null)
                        .body(),
                "mode");
        Map<String, Object> figures = finish("ops pause, resume and sold out mid-sale", e);
        figures.put("offers while paused", offeredWhilePaused);
        figures.put("mode seen while paused / after sold out", pausedMode + " / " + soldOutMode);
        figures.put("offers resumed after resume (ms)", resumed);
        figures.put("offers after sold out", offeredAfterSoldOut);
        assertThat(offeredWhilePaused).isZero();
        assertThat(offeredAfterSoldOut).isZero();
        assertThat(pausedMode).isEqualTo("PAUSED");
        assertThat(soldOutMode).isEqualTo("SOLD_OUT");
    }

    @Test
    @Order(8)
    void statusTrafficNeverReachesTheBookingService() throws Exception {
        // One offer a second to 60 visitors: whoever waits polls once a second, so from the first purchases on the
        // polls outnumber the shop's calls (three a purchase, a third of those admitted buying) some thirty to one,
        // and a rate controller still low after the booking slowdown scenario only makes the waits longer. At six
        // offers a second the crowd was through in about ten seconds, sometimes before its polls came to twenty times
        // its shop calls (CI, stop 46).
        String e = newSale(CEILING, 1, 60, 60, true);
        double bookingBefore = bookingRequests(false);
        double webhooksBefore = bookingRequests(true);
        await().atMost(Duration.ofSeconds(180))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(checkoutCalls() >= 6
                                && crowd.counters().getOrDefault("status.200", 0L) >= 20L * checkoutCalls())
                        .as("crowd %s, offers %d", crowd.counters(), durable.grantsOffered(e))
                        .isTrue());
        crowd.close();
        long polls = crowd.counters().getOrDefault("status.200", 0L);
        long checkout = checkoutCalls();
        double bookingDelta = bookingRequests(false) - bookingBefore;
        double webhookDelta = bookingRequests(true) - webhooksBefore;
        Map<String, Object> figures = finish("status traffic 20x checkout traffic", e);
        figures.put("status polls / checkout calls", polls + " / " + checkout);
        figures.put(
                "requests that reached booking (shop / payment webhooks)",
                (long) bookingDelta + " / " + (long) webhookDelta);
        // Booking sees the shop calls and nothing of the polls. The payment simulator's webhooks come besides, one per
        // order, and a few more when it retries one that arrived too early.
        long orders = crowd.counters().getOrDefault("order.201", 0L)
                + crowd.counters().getOrDefault("order.200", 0L)
                + crowd.counters().getOrDefault("order.202", 0L);
        assertThat(bookingDelta).isLessThanOrEqualTo(checkout);
        assertThat(webhookDelta).isLessThanOrEqualTo(3.0 * orders);
    }

    // ---------------------------------------------------------------------------------------------------------

    /** The crowd's requests to the shop: every seat listing, hold and order, each counted once by its answer. */
    private long checkoutCalls() {
        return crowd.counters().entrySet().stream()
                .filter(c -> c.getKey().startsWith("seats.")
                        || c.getKey().startsWith("hold.")
                        || c.getKey().startsWith("order."))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /** A sale that opens now, with its own event, inventory, crowd and live-grant sampler. */
    private String newSale(int ceiling, int ratePerSecond, int visitors, int seats, boolean browse) throws Exception {
        String e = "fault-" + UUID.randomUUID().toString().substring(0, 8);
        String event = """
                {"eventId":"%s","name":"Fault suite","opensAt":null,"maxActiveSessions":%d,"maxAdmissionsPerSecond":%d,
                 "offerTtlSeconds":20,"sessionTtlSeconds":60,"sessionMaxSeconds":120,"presaleOrdering":"RANDOM",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(e, ceiling, ratePerSecond);
        HttpResponse<String> created = opsCall("POST", "/admin/events", event);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> inventory = opsCall(
                "PUT",
                "/admin/events/" + e + "/inventory",
                "{\"categories\":[{\"name\":\"Floor\",\"seats\":" + seats + ",\"priceCents\":5000}]}");
        assertThat(inventory.statusCode() / 100).as(inventory.body()).isEqualTo(2);
        crowd = new Crowd(stack.gatewayUrl(), e, 0.3);
        crowd.join(visitors);
        sampler = new LiveGrantSampler(durable, e, ceiling);
        if (browse) {
            crowd.start();
        }
        return e;
    }

    /** {@link #newSale}, once the coordinator has made its first offer in it. */
    private String newSaleWithAnOffer(int ceiling, int ratePerSecond, int visitors, int seats, boolean browse)
            throws Exception {
        String e = newSale(ceiling, ratePerSecond, visitors, seats, browse);
        await().atMost(Duration.ofSeconds(20)).until(() -> durable.grantsOffered(e) > 0);
        return e;
    }

    private Map<String, Object> finish(String scenario, String e) throws Exception {
        List<String> violations = durable.invariantViolations(e, sampler.ceiling);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("visitors", crowd.visitors().size());
        figures.put("offers (grants)", durable.grantsOffered(e));
        figures.put("max live grants sampled / ceiling", sampler.max.get() + " / " + sampler.ceiling);
        figures.put("samples", sampler.samples.get());
        figures.put("paid orders", durable.paidOrders(e));
        figures.put("seats sold twice", durable.seatsSoldTwice(e));
        figures.put("invariant violations", violations.isEmpty() ? "none" : violations);
        figures.put("crowd", crowd.counters());
        REPORT.put(scenario, figures);
        assertThat(sampler.max.get())
                .as("live grants sampled during the scenario")
                .isLessThanOrEqualTo(sampler.ceiling);
        assertThat(violations).as(scenario).isEmpty();
        long lostVisitors =
                crowd.visitors().stream().filter(v -> v.receipt == null).count();
        figures.put("visitors without a place", lostVisitors);
        assertThat(lostVisitors).as("every joined visitor holds a receipt").isZero();
        return figures;
    }

    private String awaitLeader(String e) {
        return await().atMost(Duration.ofSeconds(15)).until(() -> leaderOf(e), java.util.Objects::nonNull);
    }

    /** The coordinator process whose instance id holds the event's lease (instance ids name host, port or pid). */
    private String leaderOf(String e) throws Exception {
        Map<String, Object> lease = durable.lease(e);
        if (!Boolean.TRUE.equals(lease.get("held"))) {
            return null;
        }
        String owner = String.valueOf(lease.get("owner"));
        for (Map.Entry<String, Process> p : stack.processes().entrySet()) {
            if (!p.getKey().startsWith(LocalStack.COORDINATOR) || !p.getValue().isAlive()) {
                continue;
            }
            int port = stack.config().servicePorts().get(p.getKey());
            if (owner.contains(String.valueOf(p.getValue().pid())) || owner.contains(":" + port)) {
                return p.getKey();
            }
        }
        return null;
    }

    private long awaitOffersAfter(String e, Instant after, Duration within) {
        Instant start = Instant.now();
        await().atMost(within.plusSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> durable.grantsOfferedAfter(e, after) > 0);
        return Duration.between(after.isAfter(start) ? start : after, Instant.now())
                .toMillis();
    }

    private double admissionRate(String e) throws Exception {
        HttpResponse<String> view = opsCall("GET", "/admin/events/" + e, null);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"admissionRate\"\\s*:\\s*([\\d.eE+-]+)")
                .matcher(view.body());
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    private double averageRate(String e, Duration over) throws Exception {
        double sum = 0;
        int n = 0;
        Instant end = Instant.now().plus(over);
        while (Instant.now().isBefore(end)) {
            sum += admissionRate(e);
            n++;
            await().pollDelay(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(1))
                    .until(() -> true);
        }
        return n == 0 ? 0 : sum / n;
    }

    /** Booking's answered requests: the payment webhooks only, or every other route but the actuator's. */
    private double bookingRequests(boolean webhooks) throws Exception {
        HttpResponse<String> metrics = ops.send(
                HttpRequest.newBuilder(URI.create(stack.managementUrl("booking-service") + "/actuator/prometheus"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        double total = 0;
        for (String line : metrics.body().split("\n")) {
            if (line.startsWith("http_server_requests_seconds_count{")
                    && !line.contains("uri=\"/actuator")
                    && line.contains("uri=\"/webhooks/payments\"") == webhooks) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    private static HttpResponse<String> opsCall(String method, String path, String body) throws Exception {
        return TestStacks.ops(stack, stack.gatewayUrl(), method, path, body);
    }
}
