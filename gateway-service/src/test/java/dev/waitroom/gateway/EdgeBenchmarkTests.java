package dev.waitroom.gateway;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.StubCoordinator;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.BenchmarkFigures;
import dev.waitroom.testsupport.BenchmarkRun;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.VisitorCookieCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ContextConfiguration;

/**
 * Prints throughput and latency of the edge as {@code BENCH} lines (docs/BENCHMARKS.md): status polls answered at the
 * edge and forwarded, joins, a shop request with its admission token, and token verification in one thread. Not part
 * of the normal build: {@code ./mvnw -o -pl gateway-service verify -Pbenchmark -Dtest=EdgeBenchmarkTests}
 * ({@code -Dbench.threads}, {@code -Dbench.seconds} per run). A component figure: the client shares the JVM, and the
 * upstreams are the JDK-HttpServer stubs, so forwarded figures include the stub's own cost.
 */
@Tag("benchmark")
@SpringBootTest(
        classes = GatewayApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "waitroom.gateway.rate-limits.status.replenish-rate=100000",
            "waitroom.gateway.rate-limits.status.burst-capacity=100000",
            "waitroom.gateway.rate-limits.join.replenish-rate=100000",
            "waitroom.gateway.rate-limits.join.burst-capacity=100000",
            "waitroom.gateway.rate-limits.join.requested-tokens=1",
            "logging.level.dev.waitroom.gateway.access=WARN"
        })
@ContextConfiguration(initializers = GatewayTestInitializer.class)
class EdgeBenchmarkTests {

    static final int THREADS = Integer.getInteger("bench.threads", 32);

    static final Duration DURATION = Duration.ofSeconds(Long.getLong("bench.seconds", 10));

    static final int WARM_UP_CALLS = 2_000;

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    final HttpClient http =
            HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4)).build();

    @Test
    void printFigures() throws Exception {
        String event = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        upstreams.queue.event(event).admissionRate(5).addWaiting(2_000);
        List<String> visitors = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Browser browser = new Browser(port);
            browser.post("/events/" + event + "/queue", "{}");
            visitors.add("wr_vid=" + browser.cookie("wr_vid").orElseThrow() + "; wr_qt="
                    + browser.cookie("wr_qt").orElseThrow());
        }
        IntFunction<String> cookies = i -> visitors.get(i % visitors.size());
        URI status = URI.create("http://localhost:" + port + "/events/" + event + "/queue/status");
        BenchmarkFigures warmUp = BenchmarkRun.calls(
                "gateway.warm-up", THREADS, WARM_UP_CALLS, i -> get(status, cookies.apply(i))); // unmeasured

        double edgeBefore = polls("edge");
        double forwardedBefore = polls("forwarded");
        BenchmarkFigures edge = run("gateway.status.edge", i -> get(status, cookies.apply(i)));
        double edgeShare =
                (polls("edge") - edgeBefore) / (polls("edge") - edgeBefore + polls("forwarded") - forwardedBefore);
        edge.add("edge_share_pct", edgeShare * 100)
                .add("warmup_calls", WARM_UP_CALLS)
                .add("warmup_seconds", warmUp.get("seconds"));
        BenchmarkFigures forwarded = run(
                "gateway.status.forwarded", i -> get(status, cookies.apply(i).replaceAll("; wr_qt=.*", "")));
        edge.add("edge_vs_forwarded", (Double) edge.get("rps") / (Double) forwarded.get("rps"));
        URI join = URI.create("http://localhost:" + port + "/events/" + event + "/queue");
        BenchmarkFigures joins = run(
                "gateway.join.forwarded",
                i -> send(HttpRequest.newBuilder(join)
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .header("Content-Type", "application/json")
                        .build()));

        String shopEvent = "bench-shop-" + UUID.randomUUID().toString().substring(0, 8);
        upstreams.queue.event(shopEvent);
        Browser shopper = new Browser(port);
        shopper.post("/events/" + shopEvent + "/queue", "{}");
        String vid = shopper.cookie("wr_vid").orElseThrow();
        String visitorId = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY))
                .decode(vid)
                .value();
        StubCoordinator.Issued token = upstreams.coordinator.admit(shopEvent, visitorId, 1);
        URI seats = URI.create("http://localhost:" + port + "/events/" + shopEvent + "/shop/seats");
        BenchmarkFigures shop = run(
                "gateway.shop.token",
                i -> send(HttpRequest.newBuilder(seats)
                        .header("Cookie", "wr_vid=" + vid)
                        .header("Authorization", "Bearer " + token.token())
                        .build()));

        for (BenchmarkFigures figures : List.of(edge, forwarded, joins, shop)) {
            figures.add("cores", Runtime.getRuntime().availableProcessors())
                    .add(
                            "load_avg",
                            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                    .print();
        }
        verifierFigures().print();
    }

    /** In-process admission token verification in one thread: first sight (signature) and cached. */
    static BenchmarkFigures verifierFigures() {
        KeyRing ring = KeyRing.generate(Clock.systemUTC());
        String jwks = ring.publicJwksJson();
        AdmissionTokenVerifier verifier = AdmissionTokenVerifier.of(() -> jwks, Clock.systemUTC());
        AdmissionTokenIssuer issuer = AdmissionTokenIssuer.of(ring);
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        int n = 20_000;
        String[] tokens = new String[n];
        for (int i = 0; i < n; i++) {
            tokens[i] = issuer.issue(
                    new AdmissionClaims("e", 1, "g" + i, "s" + i, "v", now, now.plusSeconds(600), "j" + i));
        }
        verifier.verify(tokens[0], "e", 1);
        long start = System.nanoTime();
        for (String token : tokens) {
            verifier.verify(token, "e", 1);
        }
        double first = n / ((System.nanoTime() - start) / 1e9);
        start = System.nanoTime();
        for (int round = 0; round < 10; round++) {
            for (String token : tokens) {
                verifier.verify(token, "e", 1);
            }
        }
        double cached = 10.0 * n / ((System.nanoTime() - start) / 1e9);
        return BenchmarkFigures.named("gateway.token.verify")
                .add("tokens", n)
                .add("threads", 1)
                .add("first_sight_per_s", first)
                .add("cached_per_s", cached);
    }

    /** As many calls as the client threads make in {@link #DURATION}; answers other than 2xx are counted. */
    BenchmarkFigures run(String name, IntUnaryOperator call) throws Exception {
        AtomicLong non2xx = new AtomicLong();
        BenchmarkFigures figures = BenchmarkRun.forDuration(name, THREADS, DURATION, i -> {
            int status = call.applyAsInt(i);
            if (status < 200 || status >= 300) {
                non2xx.incrementAndGet();
            }
        });
        return figures.add("non_2xx", non2xx.get());
    }

    double polls(String answered) {
        return meters.find("waitroom.gateway.status.polls").tag("answered", answered).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    int get(URI uri, String cookies) {
        return send(HttpRequest.newBuilder(uri).header("Cookie", cookies).build());
    }

    /** The status of the answer; an exception fails the run (a benchmark that measured failures measured nothing). */
    int send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception ex) {
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException(request.uri() + " was not answered", ex);
        }
    }
}
