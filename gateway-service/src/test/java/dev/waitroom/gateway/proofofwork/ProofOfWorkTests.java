package dev.waitroom.gateway.proofofwork;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.tokens.HmacKey;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.altcha.altcha.Altcha;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The proof-of-work gate on join through the real gateway (real HTTP, real Redis), with the stub queue-service serving
 * a snapshot whose join gate has a difficulty. Solutions are found the way any ALTCHA client finds them
 * ({@link Altcha#solveChallenge}). Every browser sends an address of its own as {@code X-Forwarded-For}, so the
 * per-address limits never stand in for the gate.
 */
@GatewayIntegrationTest
class ProofOfWorkTests {

    private static final long DIFFICULTY = 5_000;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final AtomicInteger ADDRESSES = new AtomicInteger();

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    @Test
    void joinWithoutASolutionIsRefusedWithAChallengeForThisEvent() {
        String event = gatedEvent();

        Browser.Reply reply = join(visitor(), event, null);

        assertProblem(reply, ProblemType.PROOF_OF_WORK_REQUIRED);
        JsonNode challenge = reply.json().get("challenge");
        assertThat(challenge.get("algorithm").asString()).isEqualTo("SHA-256");
        assertThat(challenge.get("maxnumber").asLong()).isEqualTo(DIFFICULTY);
        assertThat(challenge.get("challenge").asString()).matches("[0-9a-f]{64}");
        assertThat(challenge.get("signature").asString()).matches("[0-9a-f]{64}");
        assertThat(challenge.get("salt").asString()).contains("event=" + event).contains("expires=");
        assertThat(upstreams.queue.event(event).joinsCreated()).isZero();
    }

    @Test
    void solvedChallengeJoinsAndTheProofIsNotForwarded() throws Exception {
        String event = gatedEvent();
        Visitor browser = visitor();
        double acceptedBefore = counted("accepted");

        String proof = solve(join(browser, event, null).json().get("challenge"));
        Browser.Reply joined = join(browser, event, proof);

        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        assertThat(upstreams.queue.event(event).joinsCreated()).isEqualTo(1);
        assertThat(upstreams
                        .queue
                        .lastReceived("/events/" + event + "/queue")
                        .orElseThrow()
                        .header(Headers.PROOF_OF_WORK))
                .isEmpty();
        assertThat(counted("accepted")).isEqualTo(acceptedBefore + 1);
    }

    @Test
    void theChallengeRouteServesAChallengeOnlyWhenTheEventAsksForOne() throws Exception {
        String gated = gatedEvent();
        String open = openEvent();

        Browser.Reply challenge =
                new Browser(port).get("/events/" + gated + "/queue/challenge", "X-Forwarded-For", nextAddress());
        Browser.Reply none =
                new Browser(port).get("/events/" + open + "/queue/challenge", "X-Forwarded-For", nextAddress());

        assertThat(challenge.status()).isEqualTo(200);
        assertThat(challenge.header("Cache-Control")).hasValue("no-store");
        assertThat(none.status()).isEqualTo(204);
        Visitor browser = visitor();
        assertThat(join(browser, gated, solve(challenge.json())).status()).isEqualTo(201);
    }

    @Test
    void aSolutionIsAcceptedOnceForAnyVisitor() throws Exception {
        String event = gatedEvent();
        Visitor first = visitor();
        String proof = solve(join(first, event, null).json().get("challenge"));
        assertThat(join(first, event, proof).status()).isEqualTo(201);

        Browser.Reply again = join(first, event, proof);
        Browser.Reply other = join(visitor(), event, proof);

        assertProblem(again, ProblemType.PROOF_OF_WORK_REPLAYED);
        assertProblem(other, ProblemType.PROOF_OF_WORK_REPLAYED);
        assertThat(other.json().get("challenge").get("challenge").asString())
                .as("a fresh challenge to solve instead")
                .isNotEqualTo(payload(proof).get("challenge").asString());
        assertThat(upstreams.queue.event(event).joinsCreated()).isEqualTo(1);
    }

    @Test
    void tamperedExpiredOrForeignSolutionsAreInvalid() throws Exception {
        String event = gatedEvent();
        String otherEvent = gatedEvent();
        Visitor browser = visitor();
        JsonNode challenge = join(browser, event, null).json().get("challenge");
        String proof = solve(challenge);
        Map<String, Object> solved = asMap(payload(proof));

        Map<String, Object> wrongNumber = new LinkedHashMap<>(solved);
        wrongNumber.put("number", ((Number) solved.get("number")).longValue() + 1);
        Map<String, Object> wrongSignature = new LinkedHashMap<>(solved);
        wrongSignature.put("signature", "0".repeat(64));
        Map<String, Object> easierChallenge = new LinkedHashMap<>(solved); // a challenge of the client's own choosing
        String easySalt = "00?expires=" + (Instant.now().getEpochSecond() + 60) + "&event=" + event;
        easierChallenge.put("salt", easySalt);
        easierChallenge.put("number", 1);
        easierChallenge.put("challenge", Altcha.hashHex(Altcha.Algorithm.SHA256, easySalt + "1"));
        String foreign = solve(join(visitor(), otherEvent, null).json().get("challenge"));
        String expired = solve(JSON.valueToTree(JoinChallenges.of(
                        HmacKey.fromBase64(StubUpstreams.VISITOR_KEY),
                        Clock.fixed(Instant.now().minus(Duration.ofMinutes(10)), ZoneOffset.UTC),
                        Duration.ofMinutes(5))
                .issue(EventId.of(event), DIFFICULTY)));
        String otherKey = solve(
                JSON.valueToTree(JoinChallenges.of(HmacKey.of(new byte[32]), Clock.systemUTC(), Duration.ofMinutes(5))
                        .issue(EventId.of(event), DIFFICULTY)));

        for (String bad : List.of(
                encode(wrongNumber),
                encode(wrongSignature),
                encode(easierChallenge),
                foreign,
                expired,
                otherKey,
                "not base64!",
                Base64.getEncoder().encodeToString("[1,2]".getBytes(StandardCharsets.UTF_8)),
                "A".repeat(5000))) {
            // a visitor each: one visitor's joins are limited to a few in a row
            assertProblem(join(visitor(), event, bad), ProblemType.PROOF_OF_WORK_INVALID);
        }
        assertThat(upstreams.queue.event(event).joinsCreated()).isZero();
        assertThat(join(visitor(), event, proof).status())
                .as("the real solution still works")
                .isEqualTo(201);
    }

    @Test
    void anEventWithoutTheGateJoinsAsBefore() {
        String event = openEvent();
        Visitor browser = visitor();

        assertThat(join(browser, event, null).status()).isEqualTo(201);
        assertThat(join(browser, event, "whatever").status())
                .as("a stray header is ignored (and not forwarded)")
                .isEqualTo(200);
        assertThat(upstreams
                        .queue
                        .lastReceived("/events/" + event + "/queue")
                        .orElseThrow()
                        .header(Headers.PROOF_OF_WORK))
                .isEmpty();
    }

    @Test
    void aJoinThrottledByTheQueueGivesItsSolutionBack() throws Exception {
        String event = gatedEvent();
        Visitor browser = visitor();
        String proof = solve(join(browser, event, null).json().get("challenge"));
        upstreams.queue.event(event).refuseJoins(1);

        Browser.Reply throttled = join(browser, event, proof);
        Browser.Reply retried = join(browser, event, proof);

        assertThat(throttled.status()).isEqualTo(503);
        assertThat(throttled.header("Retry-After")).hasValue("1");
        assertThat(retried.status()).as(retried.toString()).isEqualTo(201);
        assertProblem(join(visitor(), event, proof), ProblemType.PROOF_OF_WORK_REPLAYED);
    }

    @Test
    void concurrentUsesOfOneSolutionLetExactlyOneJoinThrough() throws Exception {
        String event = gatedEvent();
        String proof = solve(join(visitor(), event, null).json().get("challenge"));
        int threads = 24;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Browser.Reply>> replies = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Visitor browser = visitor();
                replies.add(pool.submit(() -> {
                    start.await();
                    return join(browser, event, proof);
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Browser.Reply> reply : replies) {
                Browser.Reply answered = reply.get();
                statuses.add(answered.status());
                if (answered.status() != 201) {
                    assertProblem(answered, ProblemType.PROOF_OF_WORK_REPLAYED);
                }
            }
            assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
            assertThat(statuses).filteredOn(s -> s == 403).hasSize(threads - 1);
            assertThat(upstreams.queue.event(event).joinsCreated()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    private String gatedEvent() {
        String event = "pow-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event).joinGate(new JoinGate(0, DIFFICULTY));
        return event;
    }

    private String openEvent() {
        String event = "pow-open-" + UUID.randomUUID().toString().substring(0, 8);
        upstreams.queue.event(event);
        return event;
    }

    /** A browser of its own address. */
    private Visitor visitor() {
        return new Visitor(new Browser(port), nextAddress());
    }

    private static Browser.Reply join(Visitor visitor, String event, String proof) {
        String path = "/events/" + event + "/queue";
        return proof == null
                ? visitor.browser().post(path, "{}", "X-Forwarded-For", visitor.address())
                : visitor.browser()
                        .post(path, "{}", "X-Forwarded-For", visitor.address(), Headers.PROOF_OF_WORK, proof);
    }

    /** Addresses from 198.18.0.0/15 (never routed), believed from loopback by the gateway. */
    private static String nextAddress() {
        int n = ADDRESSES.getAndIncrement();
        return "198.19." + (250 + n / 250 % 4) + "." + (n % 250 + 1);
    }

    private record Visitor(Browser browser, String address) {}

    /** Solves the challenge as the page does, and encodes the payload for {@code X-Waitroom-Proof}. */
    static String solve(JsonNode challenge) throws Exception {
        Altcha.Solution solution = Altcha.solveChallenge(
                challenge.get("challenge").asString(),
                challenge.get("salt").asString(),
                Altcha.Algorithm.SHA256,
                challenge.get("maxnumber").asLong(),
                0);
        assertThat(solution).as("solvable within maxnumber").isNotNull();
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("algorithm", challenge.get("algorithm").asString());
        payload.put("challenge", challenge.get("challenge").asString());
        payload.put("number", solution.number);
        payload.put("salt", challenge.get("salt").asString());
        payload.put("signature", challenge.get("signature").asString());
        return encode(payload);
    }

    private static String encode(Map<String, Object> payload) {
        return Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(payload));
    }

    private static JsonNode payload(String proof) {
        return JSON.readTree(Base64.getDecoder().decode(proof));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(JsonNode node) {
        return JSON.treeToValue(node, LinkedHashMap.class);
    }

    private static void assertProblem(Browser.Reply reply, ProblemType problem) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(problem.status());
        assertThat(reply.header("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(reply.json().get("type").asString()).isEqualTo(problem.type().toString());
        if (problem.status() == 403) {
            assertThat(reply.json().get("challenge").get("salt").asString()).contains("expires=");
        }
    }

    private double counted(String outcome) {
        return meters.get("waitroom.gateway.proof.of.work")
                .tag("outcome", outcome)
                .counter()
                .count();
    }
}
