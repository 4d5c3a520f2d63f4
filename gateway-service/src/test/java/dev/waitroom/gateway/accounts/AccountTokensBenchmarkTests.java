package dev.waitroom.gateway.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.BenchmarkFigures;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a sign-in token costs the gateway (docs/integration/accounts.md, "Cost"), in-process in one thread: the first sight of a
 * token (parse, RS256 or ES256 signature against the cached JWKS, claims, pseudonym) and a token seen before (SHA-256
 * of the token, one cache lookup). Each call goes through {@link AccountTokens#verify}, the bounded elastic scheduler
 * hop included. A component figure (docs/BENCHMARKS.md): {@code ./mvnw -o -pl gateway-service verify -Pbenchmark
 * -Dtest=AccountTokensBenchmarkTests}.
 */
@Tag("benchmark")
class AccountTokensBenchmarkTests {

    static final int TOKENS = 3_000;

    @Test
    void verificationCostsPerToken() {
        try (TestIdentityProvider provider = new TestIdentityProvider()) {
            AccountTokens tokens = new AccountTokens(
                    AccountsPropertiesTests.of(
                            provider.issuer(),
                            TestIdentityProvider.AUDIENCE,
                            provider.jwksUri().toString(),
                            AccountsTests.randomKey(),
                            List.of("RS256", "ES256")),
                    Clock.systemUTC());
            // warm-up, unmeasured: the JWKS fetched, the code paths compiled
            for (String token : mint(2_000, provider::token)) {
                assertThat(tokens.verify(token).block()).isInstanceOf(AccountTokens.Verified.class);
            }
            double rs256 = perSecond(tokens, mint(TOKENS, provider::token));
            double es256 = perSecond(tokens, mint(TOKENS, provider::ecToken));
            List<String> seen = mint(TOKENS, provider::token);
            perSecond(tokens, seen);
            double cached = 0;
            for (int round = 0; round < 5; round++) {
                cached += perSecond(tokens, seen) / 5;
            }
            BenchmarkFigures.named("gateway.accounts.verify")
                    .add("tokens", TOKENS)
                    .add("threads", 1)
                    .add("rs256_first_sight_per_s", Math.round(rs256))
                    .add("es256_first_sight_per_s", Math.round(es256))
                    .add("seen_before_per_s", Math.round(cached))
                    .add("jwks_fetches", provider.jwksFetches())
                    .add("cores", Runtime.getRuntime().availableProcessors())
                    .add(
                            "load_avg",
                            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                    .print();
            assertThat(provider.jwksFetches())
                    .as("one JWKS fetch for every token")
                    .isEqualTo(1);
        }
    }

    private static List<String> mint(int n, Function<String, String> token) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(token.apply(UUID.randomUUID().toString()));
        }
        return out;
    }

    private static double perSecond(AccountTokens tokens, List<String> batch) {
        long start = System.nanoTime();
        for (String token : batch) {
            if (!(tokens.verify(token).block(Duration.ofSeconds(5)) instanceof AccountTokens.Verified)) {
                throw new IllegalStateException("a valid token was refused");
            }
        }
        return batch.size() / ((System.nanoTime() - start) / 1e9);
    }
}
