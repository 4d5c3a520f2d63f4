package dev.waitroom.gateway.proofofwork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.microsoft.playwright.Page;
import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.testing.Chromium;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.testsupport.BenchmarkFigures;
import dev.waitroom.tokens.HmacKey;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.altcha.altcha.Altcha;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the proof-of-work gate costs (docs/design/abuse/proof-of-work.md): the page's solver (the same worker file the
 * waiting page runs) in headless Chromium on this machine at three difficulties, for the worst case (the secret number
 * at the end of the range) and for random challenges as the gateway issues them; and the gateway's CPU cost of
 * checking one solution. Figures only (docs/BENCHMARKS.md): run with
 * {@code ./mvnw -o -pl gateway-service verify -Pbenchmark -Dtest=ProofOfWorkBenchmarkTests}.
 */
@Tag("benchmark")
@GatewayIntegrationTest
class ProofOfWorkBenchmarkTests {

    private static final long[] DIFFICULTIES = {50_000, 200_000, 1_000_000};

    private static final int RANDOM_CHALLENGES = 5;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Runs the worker once on a challenge; resolves {number, ms}. */
    private static final String SOLVE = """
            task => new Promise((resolve, reject) => {
              const worker = new Worker('/assets/proof-of-work.js');
              const started = performance.now();
              worker.onmessage = m => {
                if (m.data.progress !== undefined) { return; }
                worker.terminate();
                if (m.data.number === undefined) { reject(new Error(m.data.error)); return; }
                resolve({ number: m.data.number, ms: performance.now() - started });
              };
              worker.onerror = e => reject(new Error(e.message));
              worker.postMessage(task);
            })
            """;

    @LocalServerPort
    int port;

    @Test
    void solveTimesInHeadlessChromium() throws Exception {
        try (Chromium chromium = Chromium.launchOrNull()) {
            assumeTrue(chromium != null, Chromium.SKIP_REASON);
            Page page = chromium.newPage("198.19.230.1");
            page.navigate("http://localhost:" + port + "/assets/waitroom.css"); // an origin to run the worker from
            Object selfTest = page.evaluate("""
                    () => new Promise(resolve => {
                      const worker = new Worker('/assets/proof-of-work.js');
                      worker.onmessage = m => { worker.terminate(); resolve(m.data.selfTest); };
                      worker.postMessage({ selfTest: 'waitroom?expires=1&event=e' + 12345 });
                    })
                    """);
            assertThat(selfTest)
                    .as("the fallback SHA-256 agrees with WebCrypto")
                    .isEqualTo(true);
            solve(page, 20_000, 19_999, false); // warm-up, unmeasured
            for (long difficulty : DIFFICULTIES) {
                double worst = solve(page, difficulty, difficulty - 1, false);
                List<Double> random = new ArrayList<>();
                SecureRandom rng = new SecureRandom();
                for (int i = 0; i < RANDOM_CHALLENGES; i++) {
                    random.add(solve(page, difficulty, rng.nextLong(difficulty), false));
                }
                BenchmarkFigures.named("gateway.pow.solve")
                        .add("browser", "chromium-" + chromium.version())
                        .add("difficulty", difficulty)
                        .add("worst_ms", Math.round(worst))
                        .add("hashes_per_s", Math.round(difficulty / (worst / 1000)))
                        .add("random_n", RANDOM_CHALLENGES)
                        .add(
                                "random_mean_ms",
                                Math.round(random.stream()
                                        .mapToDouble(d -> d)
                                        .average()
                                        .orElseThrow()))
                        .add(
                                "random_max_ms",
                                Math.round(random.stream()
                                        .mapToDouble(d -> d)
                                        .max()
                                        .orElseThrow()))
                        .print();
            }
            double fallback = solve(page, 200_000, 199_999, true);
            BenchmarkFigures.named("gateway.pow.solve.fallback")
                    .add("browser", "chromium-" + chromium.version())
                    .add("difficulty", 200_000)
                    .add("worst_ms", Math.round(fallback))
                    .add("hashes_per_s", Math.round(200_000 / (fallback / 1000)))
                    .print();
        }
    }

    @Test
    void gatewayCostOfCheckingOneSolution() throws Exception {
        JoinChallenges challenges =
                JoinChallenges.of(HmacKey.of(new byte[32]), Clock.systemUTC(), Duration.ofMinutes(5));
        EventId event = EventId.of("bench-pow");
        int distinct = 256;
        List<String> proofs = new ArrayList<>();
        for (int i = 0; i < distinct; i++) {
            proofs.add(ProofOfWorkTests.solve(JSON.valueToTree(challenges.issue(event, 1_000))));
        }
        long warmUpUntil = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int warmUps = 0;
        while (System.nanoTime() < warmUpUntil) {
            assertThat(challenges.verify(event, proofs.get(warmUps++ % distinct)))
                    .isInstanceOf(Verification.Solved.class);
        }
        int checks = 200_000;
        long started = System.nanoTime();
        for (int i = 0; i < checks; i++) {
            if (!(challenges.verify(event, proofs.get(i % distinct)) instanceof Verification.Solved)) {
                throw new AssertionError("a valid solution was refused");
            }
        }
        double micros = (System.nanoTime() - started) / 1_000.0 / checks;
        BenchmarkFigures.named("gateway.pow.verify")
                .add("checks", checks)
                .add("warmup_s", 20)
                .add("us_per_check", Math.round(micros * 100) / 100.0)
                .add("issue_and_check", "sha256+hmac+json+base64")
                .print();
    }

    private static double solve(Page page, long difficulty, long number, boolean fallback) throws Exception {
        Altcha.Challenge challenge = Altcha.createChallenge(new Altcha.ChallengeOptions()
                .setMaxNumber(difficulty)
                .setNumber(number)
                .setHmacKey("bench")
                .setExpiresInSeconds(300)
                .addParam("event", "bench"));
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) page.evaluate(
                SOLVE,
                Map.of(
                        "challenge",
                        challenge.challenge,
                        "salt",
                        challenge.salt,
                        "max",
                        Math.toIntExact(difficulty), // Playwright passes no long
                        "fallback",
                        fallback));
        assertThat(((Number) result.get("number")).longValue()).isEqualTo(number);
        return ((Number) result.get("ms")).doubleValue();
    }
}
