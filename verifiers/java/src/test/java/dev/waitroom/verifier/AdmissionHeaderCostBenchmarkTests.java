package dev.waitroom.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.BenchmarkFigures;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.AdmissionHeaderKey;
import dev.waitroom.tokens.AdmissionHeaderSigner;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a {@code Waitroom-Admission} header costs: one Ed25519 signature at the gateway per forwarded request, one
 * verification at the origin. Prints figures, asserts none (docs/BENCHMARKS.md): {@code ./mvnw -pl verifiers/java
 * verify -Pbenchmark -Dtest=AdmissionHeaderCostBenchmarkTests -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class AdmissionHeaderCostBenchmarkTests {

    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 50_000;

    @Test
    void signAndVerifyCost() throws Exception {
        AdmissionHeaderSigner signer = AdmissionHeaderSigner.of(AdmissionHeaderKey.generate(), null);
        Instant now = Instant.parse("2027-01-01T00:00:00Z");
        AdmissionVerifier verifier = AdmissionVerifier.builder()
                .keys(AdmissionKeys.fromJwks(signer.jwks()))
                .audience("booking")
                .clock(Clock.fixed(now, ZoneOffset.UTC))
                .build();
        String path = "/events/summer-tour/shop/seats";
        int length = 0;
        for (int i = 0; i < WARM_UP; i++) {
            length += signer.sign(statement(i, path, now)).length();
        }
        long signStart = System.nanoTime();
        String last = null;
        for (int i = 0; i < MEASURED; i++) {
            last = signer.sign(statement(i, path, now));
        }
        long signNanos = System.nanoTime() - signStart;
        for (int i = 0; i < WARM_UP; i++) {
            verifier.verify(last, "GET", path);
        }
        long verifyStart = System.nanoTime();
        for (int i = 0; i < MEASURED; i++) {
            verifier.verify(last, "GET", path);
        }
        long verifyNanos = System.nanoTime() - verifyStart;

        assertThat(length).isPositive();
        BenchmarkFigures.named("admission-header.cost")
                .add("calls", MEASURED)
                .add("sign_us", signNanos / 1000.0 / MEASURED)
                .add("sign_per_s", MEASURED / (signNanos / 1e9))
                .add("verify_us", verifyNanos / 1000.0 / MEASURED)
                .add("verify_per_s", MEASURED / (verifyNanos / 1e9))
                .add("header_chars", last.length())
                .add("jvm", System.getProperty("java.version"))
                .print();
    }

    private static AdmissionHeader statement(int i, String path, Instant now) {
        return AdmissionHeader.forRequest(
                "booking", "summer-tour", "s-" + i, "v-" + i, 3, AdmissionHeader.Scope.SHOPPING, "GET", path, now);
    }
}
