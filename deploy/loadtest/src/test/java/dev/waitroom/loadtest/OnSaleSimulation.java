package dev.waitroom.loadtest;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The on-sale rehearsal of the brief: a pre-sale group arrives before opening, later visitors ramp in around it,
 * everyone polls as the waiting page does (the server's interval plus jitter), claims offers, holds a seat and pays,
 * with a share abandoning at each stage; midway the booking service is slowed down on purpose. The verdict is
 * printed and written next to Gatling's report, and a failed must fails the run.
 */
public class OnSaleSimulation extends Simulation {

    static final Ledger LEDGER = new Ledger();
    private final LoadParameters p = LoadParameters.fromSystemProperties();
    private final OpsClient ops = new OpsClient(p.baseUrl(), p.opsToken());
    /** The regions' gateways (docs/operating/regions.md); one, {@code baseUrl}, unless {@code -Dregions=N}. */
    private final RegionGateways regions = RegionGateways.fromSystemProperties(p.baseUrl());

    private volatile Instant opensAt;

    private final HttpProtocolBuilder protocol = http.baseUrl(p.baseUrl())
            .acceptHeader("application/json")
            .contentTypeHeader("application/json")
            .disableCaching()
            .shareConnections()
            .userAgentHeader("waitroom-onsale-rehearsal")
            // every visitor is a client of its own (docs/design/abuse/client-limits.md): the gateway believes
            // X-Forwarded-For
            // from loopback, so its per-address limits see a crowd, as they would behind a load balancer
            .header("X-Forwarded-For", "#{clientAddress}");

    /** Visitors so far: each takes the next address of 198.18.0.0/15 (RFC 2544's benchmarking block). */
    private static final AtomicInteger VISITORS = new AtomicInteger();

    static String clientAddress(int n) {
        int offset = Math.floorMod(n, 1 << 17);
        return "198." + (18 + (offset >> 16)) + "." + ((offset >> 8) & 0xFF) + "." + (offset & 0xFF);
    }

    private final String e = p.eventId();

    /** Counts a visitor's outcome in the total and, with several regions, in its region's. */
    private Session outcome(Session session, String outcome) {
        LEDGER.outcome(outcome);
        if (regions.several() && session.contains("region")) {
            LEDGER.regionOutcome(session.getString("region"), outcome);
        }
        return session;
    }

    private ChainBuilder timed(String kind) {
        return exec(session -> {
            if (session.contains("rt")) {
                LEDGER.time(kind, session.getLong("rt"));
            }
            return session.remove("rt");
        });
    }

    private final ChainBuilder join = exec(http("page")
                    .get("#{base}/events/" + e)
                    .check(status().is(200)))
            .exec(http("join")
                    .post("#{base}/events/" + e + "/queue")
                    .body(StringBody("{}"))
                    .check(
                            status().in(200, 201),
                            jsonPath("$.state").saveAs("state"),
                            jsonPath("$.pollAfterSeconds").ofInt().optional().saveAs("poll"),
                            bodyString().saveAs("statusBody"),
                            responseTimeInMillis().saveAs("rt")))
            .exec(timed("join"))
            .exec(OnSaleSimulation::recordEstimate)
            .exec(session -> {
                if (!session.contains("state")) {
                    // refused (a 503 or a timeout): no place to wait for, and not a visitor the queue must account for
                    outcome(session, "joinRefused");
                    return session.set("stop", "ENDED");
                }
                outcome(session, "joined");
                return session;
            });

    private final ChainBuilder waitForOffer = asLongAs(session -> !"OFFERED".equals(session.getString("state"))
                    && !"ACTIVE".equals(session.getString("state"))
                    && !"ENDED".equals(session.getString("stop")))
            .on(exec(session -> session.set("pause", pollPause(session)))
                    .pause(session -> Duration.ofMillis(session.getLong("pause")))
                    .exec(session -> {
                        if (ThreadLocalRandom.current().nextDouble() < p.abandonWaiting() / 20) {
                            outcome(session, "abandonedWaiting");
                            return session.set("stop", "ENDED").set("abandoned", true);
                        }
                        return session;
                    })
                    .doIf(session -> !session.contains("abandoned"))
                    .then(exec(http("status")
                                    .get("#{base}/events/" + e + "/queue/status")
                                    .check(
                                            status().is(200),
                                            jsonPath("$.state").saveAs("state"),
                                            jsonPath("$.pollAfterSeconds")
                                                    .ofInt()
                                                    .optional()
                                                    .saveAs("poll"),
                                            header("X-Waitroom-Status-Source")
                                                    .optional()
                                                    .saveAs("source"),
                                            bodyString().saveAs("statusBody"),
                                            responseTimeInMillis().saveAs("rt")))
                            .exec(timed("status"))
                            .exec(OnSaleSimulation::recordEstimate)
                            .exec(session -> {
                                LEDGER.statusSource(session.getString("source"));
                                String state = session.getString("state");
                                if ("EXPIRED".equals(state) || "LEFT".equals(state) || "COMPLETED".equals(state)) {
                                    outcome(session, "endedWhileWaiting:" + state);
                                    return session.set("stop", "ENDED");
                                }
                                return session;
                            })));

    private final ChainBuilder shop = exec(http("claim")
                    .post("#{base}/events/" + e + "/admission/claim")
                    .body(StringBody("{}"))
                    .check(
                            status().is(200),
                            jsonPath("$.token").saveAs("token"),
                            responseTimeInMillis().saveAs("rt")))
            .exec(timed("claim"))
            .exec(session -> {
                outcome(session, "admitted");
                return session;
            })
            .pause(Duration.ofMillis(200), Duration.ofMillis(1500))
            .exec(http("seats")
                    .get("#{base}/events/" + e + "/shop/seats")
                    .header("Authorization", "Bearer #{token}")
                    .check(status().is(200), bodyString().saveAs("seats")))
            .exec(session -> session.set("seatId", pickSeat(session.getString("seats"))))
            .doIfOrElse(session -> session.getString("seatId") == null)
            .then(exec(session -> {
                outcome(session, "foundNoSeat");
                return session.set("done", true);
            }))
            .orElse(exec(http("hold")
                            .post("#{base}/events/" + e + "/shop/holds")
                            .header("Authorization", "Bearer #{token}")
                            .body(StringBody(session -> "{\"seatIds\":[\"" + session.getString("seatId") + "\"]}"))
                            .check(
                                    status().in(200, 201, 409).saveAs("holdStatus"),
                                    jsonPath("$.holdId").optional().saveAs("holdId"),
                                    responseTimeInMillis().saveAs("rt")))
                    .exec(timed("hold")))
            .doIf(session -> !session.contains("done") && session.contains("holdId"))
            .then(exec(session -> {
                        if (ThreadLocalRandom.current().nextDouble() < p.abandonShop()) {
                            outcome(session, "abandonedInShop");
                            return session.set("done", true);
                        }
                        return session;
                    })
                    .doIf(session -> !session.contains("done"))
                    .then(pause(p.sessionLength())
                            .exec(http("order")
                                    .post("#{base}/events/" + e + "/shop/orders")
                                    .header("Authorization", "Bearer #{token}")
                                    .body(StringBody("{\"holdId\":\"#{holdId}\"}"))
                                    .check(
                                            status().in(200, 201, 202),
                                            jsonPath("$.orderId").saveAs("orderId"),
                                            responseTimeInMillis().saveAs("rt")))
                            .exec(timed("order"))
                            .exec(session ->
                                    session.set("orderState", "PENDING").set("orderPolls", 0))
                            .asLongAs(session -> session.getString("orderState").equals("PENDING")
                                    && session.getInt("orderPolls") < 30)
                            .on(pause(Duration.ofMillis(500))
                                    .exec(http("order-status")
                                            .get("#{base}/events/" + e + "/shop/orders/#{orderId}")
                                            .header("Authorization", "Bearer #{token}")
                                            .check(
                                                    status().is(200),
                                                    jsonPath("$.state").saveAs("orderStateRaw"),
                                                    jsonPath("$.seatIds[*]")
                                                            .findAll()
                                                            .optional()
                                                            .saveAs("paidSeats")))
                                    .exec(session -> session.set("orderPolls", session.getInt("orderPolls") + 1)
                                            .set("orderState", settled(session.getString("orderStateRaw")))))
                            .exec(session -> {
                                outcome(session, "order:" + session.getString("orderStateRaw"));
                                if ("PAID".equals(session.getString("orderState"))) {
                                    List<String> seats = session.contains("paidSeats")
                                            ? session.getList("paidSeats")
                                            : List.of(session.getString("seatId"));
                                    LEDGER.sold(seats);
                                }
                                return session;
                            })));

    private final ScenarioBuilder presale = visitor("pre-sale visitor");
    private final ScenarioBuilder later = visitor("later visitor");

    private ScenarioBuilder visitor(String name) {
        return scenario(name)
                .exec(session -> {
                    int n = VISITORS.getAndIncrement();
                    // each visitor keeps to one region's gateway, spread round robin
                    int region = regions.of(n);
                    return session.set("clientAddress", clientAddress(n))
                            .set("base", regions.urls().get(region))
                            .set("region", regions.names().get(region));
                })
                .exec(join)
                .exec(waitForOffer)
                .doIf(session -> "OFFERED".equals(session.getString("state")))
                .then(shop);
    }

    private final ScenarioBuilder sampler = scenario("live view sampler")
            .asLongAs(session -> !OpsClient.STOP.get())
            .on(exec(session -> {
                        ops.sample(e, LEDGER);
                        if (regions.several()) {
                            ops.sampleBudgets(e, LEDGER);
                        }
                        return session;
                    })
                    .pause(Duration.ofSeconds(1)));

    private final ScenarioBuilder slowdown = scenario("booking slowdown")
            .pause(p.slowdownAt())
            .exec(session -> {
                ops.slowBooking(p.slowdownLatencyMs());
                return session.set("slowStart", System.currentTimeMillis());
            })
            .pause(p.slowdownFor())
            .exec(session -> {
                ops.restoreBooking();
                LEDGER.slowdown(session.getLong("slowStart"), System.currentTimeMillis());
                return session;
            });

    private static io.gatling.javaapi.core.ChainBuilder pause(Duration d) {
        return exec(session -> session).pause(d);
    }

    private static final java.util.regex.Pattern ESTIMATE = java.util.regex.Pattern.compile(
            "\"estimatedWaitSeconds\":\\{\"min\":(\\d+),\"max\":(\\d+)(?:,\"caveat\":(?:null|\"(\\w+)\"))?");

    private static final java.util.regex.Pattern OFFER =
            java.util.regex.Pattern.compile("\"offer\":\\{\"expiresAt\":\"([^\"]+)\"");

    /**
     * Keeps the range a status answer showed (its arrival time, min, max, caveat) and, on the answer that shows the
     * offer, hands the visitor's ranges to the ledger with the offer's time: its deadline less the offer TTL.
     */
    static Session recordEstimate(Session session) {
        if (!session.contains("statusBody")) {
            return session;
        }
        String body = session.getString("statusBody");
        long now = System.currentTimeMillis();
        List<Ledger.Shown> shown = session.contains("shown") ? session.getList("shown") : List.of();
        java.util.regex.Matcher estimate = ESTIMATE.matcher(body);
        if (body.contains("\"estimatedWaitSeconds\":null") && body.contains("\"state\":\"WAITING\"")) {
            LEDGER.unknownEstimate();
        }
        if (estimate.find()) {
            shown = new java.util.ArrayList<>(shown);
            shown.add(new Ledger.Shown(
                    now, Long.parseLong(estimate.group(1)), Long.parseLong(estimate.group(2)), estimate.group(3)));
        }
        java.util.regex.Matcher offer = OFFER.matcher(body);
        if (offer.find() && !session.contains("offeredAt") && !shown.isEmpty()) {
            long offeredAt = Instant.parse(offer.group(1)).toEpochMilli() - OpsClient.OFFER_TTL_SECONDS * 1000L;
            LEDGER.waited(shown, offeredAt);
            session = session.set("offeredAt", offeredAt);
        }
        return session.set("shown", shown).remove("statusBody");
    }

    private long pollPause(Session session) {
        int seconds = session.contains("poll") ? session.getInt("poll") : 3;
        // The waiting page adds up to 30 % random jitter to the server's interval.
        double jitter = 1 + ThreadLocalRandom.current().nextDouble(0.3);
        return (long) (Math.max(1, seconds) * 1000 * jitter);
    }

    private static String settled(String state) {
        return state == null
                        || state.equals("PENDING_PAYMENT")
                        || state.equals("PAYMENT_PENDING")
                        || state.equals("PENDING")
                        || state.equals("CREATED")
                ? "PENDING"
                : state;
    }

    static String pickSeat(String seatsJson) {
        // {"seats":[{"seatId":"..."}]} or [{"id":"..."}]: take a random one of the first few, as shoppers do.
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"(?:seatId|id)\"\\s*:\\s*\"([^\"]+)\"")
                .matcher(seatsJson);
        List<String> ids = new java.util.ArrayList<>();
        while (m.find() && ids.size() < 20) {
            ids.add(m.group(1));
        }
        return ids.isEmpty() ? null : ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
    }

    {
        setUp(
                        presale.injectOpen(rampUsers(p.presaleVisitors())
                                .during(p.presaleWindow().minusSeconds(2))),
                        later.injectOpen(
                                nothingFor(p.presaleWindow()),
                                constantUsersPerSec(Math.max(
                                                1.0,
                                                p.laterVisitors()
                                                        / (double) p.laterRamp().toSeconds()))
                                        .during(p.laterRamp())),
                        sampler.injectOpen(atOnceUsers(1)),
                        slowdown.injectOpen(atOnceUsers(1)))
                .protocols(protocol)
                .maxDuration(p.maxDuration());
    }

    @Override
    public void before() {
        opensAt = Instant.now().plus(p.presaleWindow());
        ops.createEvent(p, opensAt);
        if (regions.several()) {
            // every region's queue hears of the event from its own coordinator, within a tick or two
            for (String url : regions.urls()) {
                ops.awaitPublicStatus(url, e, Duration.ofSeconds(30));
            }
        }
        System.out.printf(
                "on-sale rehearsal: event %s opens at %s; %d pre-sale + %d later visitors against %s%n",
                e,
                opensAt,
                p.presaleVisitors(),
                p.laterVisitors(),
                regions.several() ? "regions " + regions.names() + " at " + regions.urls() : p.baseUrl());
    }

    @Override
    public void after() {
        OpsClient.STOP.set(true);
        ops.restoreBooking();
        Map<String, Long> counts = ops.finalCounts(e);
        Map<String, Map<String, Long>> regionCounts = new java.util.LinkedHashMap<>();
        if (regions.several()) {
            // each region's coordinator reports its own region's queue; the total is their sum
            Map<String, Long> total = new java.util.LinkedHashMap<>();
            for (int i = 0; i < regions.names().size(); i++) {
                Map<String, Long> c = new OpsClient(regions.urls().get(i), p.opsToken()).finalCounts(e);
                regionCounts.put(regions.names().get(i), c);
                c.forEach((state, n) -> total.merge(state, n, Long::sum));
            }
            counts = total;
        }
        Verdict verdict = Verdict.of(LEDGER, p, counts, regionCounts);
        System.out.println(verdict.text());
        try {
            verdict.write(p.reportDir());
            Verdict.writeEstimates(LEDGER, p.reportDir());
            System.out.println("verdict written to " + p.reportDir().toAbsolutePath());
        } catch (java.io.IOException ex) {
            System.err.println("could not write the verdict: " + ex);
        }
        if (!verdict.passed()) {
            throw new IllegalStateException("on-sale verdict: FAIL (a must did not hold; see above)");
        }
    }
}
