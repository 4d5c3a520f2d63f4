package dev.waitroom.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ContextConfiguration;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.StubCoordinator;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.KeyRing;

/**
 * Prints throughput and latency figures of the edge (not a test: Surefire runs it only when named).
 * {@code ./mvnw -q -o -pl gateway-service verify -Dtest=EdgeBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * Upstreams are the JDK-HttpServer stubs, so forwarded figures include the stub's own cost.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "waitroom.gateway.rate-limits.status.replenish-rate=100000",
				"waitroom.gateway.rate-limits.status.burst-capacity=100000",
				"waitroom.gateway.rate-limits.join.replenish-rate=100000",
				"waitroom.gateway.rate-limits.join.burst-capacity=100000",
				"waitroom.gateway.rate-limits.join.requested-tokens=1",
				"logging.level.dev.waitroom.gateway.access=WARN" })
@ContextConfiguration(initializers = GatewayTestInitializer.class)
class EdgeBenchmark {

	static final int THREADS = Integer.getInteger("bench.threads", 32);

	static final Duration DURATION = Duration.ofSeconds(Long.getLong("bench.seconds", 10));

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	final StubUpstreams upstreams = StubUpstreams.get();

	final HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4)).build();

	record Visitor(String cookies) {
	}

	@Test
	void printFigures() throws Exception {
		String event = "bench-" + UUID.randomUUID().toString().substring(0, 8);
		upstreams.queue.event(event).admissionRate(5).addWaiting(2_000);
		List<Visitor> visitors = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			Browser browser = new Browser(port);
			browser.post("/events/" + event + "/queue", "{}");
			visitors.add(new Visitor("wr_vid=" + browser.cookie("wr_vid").orElseThrow() + "; wr_qt="
					+ browser.cookie("wr_qt").orElseThrow()));
		}
		URI status = URI.create("http://localhost:" + port + "/events/" + event + "/queue/status");
		warmUp(i -> get(status, visitors.get(i % visitors.size()).cookies()));

		double edgeBefore = polls("edge");
		double forwardedBefore = polls("forwarded");
		Result edge = run("status polls, ticket + snapshot (edge)",
				i -> get(status, visitors.get(i % visitors.size()).cookies()));
		double edgeShare = (polls("edge") - edgeBefore)
				/ (polls("edge") - edgeBefore + polls("forwarded") - forwardedBefore);
		Result forwarded = run("status polls without ticket (forwarded)", i -> get(status,
				visitors.get(i % visitors.size()).cookies().replaceAll("; wr_qt=.*", "")));
		URI join = URI.create("http://localhost:" + port + "/events/" + event + "/queue");
		Result joins = run("joins, new visitors (forwarded)", i -> send(HttpRequest.newBuilder(join)
			.POST(HttpRequest.BodyPublishers.ofString("{}"))
			.header("Content-Type", "application/json")
			.build()));

		String shopEvent = "bench-shop-" + UUID.randomUUID().toString().substring(0, 8);
		upstreams.queue.event(shopEvent);
		Browser shopper = new Browser(port);
		shopper.post("/events/" + shopEvent + "/queue", "{}");
		String vid = shopper.cookie("wr_vid").orElseThrow();
		String visitorId = dev.waitroom.tokens.VisitorCookieCodec
			.of(dev.waitroom.tokens.HmacKey.fromBase64(StubUpstreams.VISITOR_KEY))
			.decode(vid)
			.value();
		StubCoordinator.Issued token = upstreams.coordinator.admit(shopEvent, visitorId, 1);
		URI seats = URI.create("http://localhost:" + port + "/events/" + shopEvent + "/shop/seats");
		Result shop = run("shop GET with admission token (verify + registry + proxy)",
				i -> send(HttpRequest.newBuilder(seats)
					.header("Cookie", "wr_vid=" + vid)
					.header("Authorization", "Bearer " + token.token())
					.build()));

		System.out.println();
		System.out.println("=== gateway edge benchmark (" + THREADS + " client threads, " + DURATION.toSeconds()
				+ " s each, " + Runtime.getRuntime().availableProcessors() + " cores shared with the clients) ===");
		for (Result r : List.of(edge, forwarded, joins, shop)) {
			System.out.println(r);
		}
		System.out.printf("share of status polls answered at the edge (ticket+snapshot run): %.1f%%%n",
				edgeShare * 100);
		System.out.printf("edge/forwarded throughput ratio: %.2fx%n", edge.perSecond() / forwarded.perSecond());
		verifierFigures();
	}

	/** In-process admission token verification: first sight (signature) and cached. */
	static void verifierFigures() {
		KeyRing ring = KeyRing.generate(Clock.systemUTC());
		String jwks = ring.publicJwksJson();
		AdmissionTokenVerifier verifier = AdmissionTokenVerifier.of(() -> jwks, Clock.systemUTC());
		AdmissionTokenIssuer issuer = AdmissionTokenIssuer.of(ring);
		Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
		int n = 20_000;
		String[] tokens = new String[n];
		for (int i = 0; i < n; i++) {
			tokens[i] = issuer.issue(new AdmissionClaims("e", 1, "g" + i, "s" + i, "v", now, now.plusSeconds(600),
					"j" + i));
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
		System.out.printf("token verifications/s, one thread: %.0f first sight (Ed25519), %.0f cached%n", first,
				cached);
	}

	double polls(String answered) {
		return meters.find("waitroom.gateway.status.polls")
			.tag("answered", answered)
			.counters()
			.stream()
			.mapToDouble(c -> c.count())
			.sum();
	}

	int get(URI uri, String cookies) {
		return send(HttpRequest.newBuilder(uri).header("Cookie", cookies).build());
	}

	int send(HttpRequest request) {
		try {
			return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (Exception ex) {
			return -1;
		}
	}

	void warmUp(IntFunction<Integer> call) {
		for (int i = 0; i < 2_000; i++) {
			call.apply(i);
		}
	}

	record Result(String name, long requests, long errors, double perSecond, double p50Ms, double p99Ms) {

		@Override
		public String toString() {
			return String.format("%-58s %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  non-2xx %d of %d", name, perSecond,
					p50Ms, p99Ms, errors, requests);
		}

	}

	Result run(String name, IntFunction<Integer> call) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(THREADS);
		long deadline = System.nanoTime() + DURATION.toNanos();
		List<Future<long[]>> futures = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			futures.add(pool.submit(() -> {
				long[] latencies = new long[1 << 20];
				int count = 0;
				long errors = 0;
				while (System.nanoTime() < deadline && count < latencies.length - 1) {
					long start = System.nanoTime();
					int status = call.apply(ThreadLocalRandom.current().nextInt(1_000_000));
					latencies[count++] = System.nanoTime() - start;
					if (status < 200 || status >= 300) {
						errors++;
					}
				}
				long[] result = Arrays.copyOf(latencies, count + 1);
				result[count] = -errors - 1;
				return result;
			}));
		}
		List<Long> all = new ArrayList<>();
		long errors = 0;
		for (Future<long[]> future : futures) {
			long[] result = future.get();
			for (int i = 0; i < result.length - 1; i++) {
				all.add(result[i]);
			}
			errors += -result[result.length - 1] - 1;
		}
		pool.shutdown();
		long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
		double perSecond = sorted.length / (DURATION.toNanos() / 1e9);
		return new Result(name, sorted.length, errors, perSecond, sorted[sorted.length / 2] / 1e6,
				sorted[(int) (sorted.length * 0.99)] / 1e6);
	}

}
