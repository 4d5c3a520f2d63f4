package dev.waitroom.verifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The Java verifier passes every vector of docs/integration/admission-header-vectors.json. */
class AdmissionHeaderVectorsTests {

    @TestFactory
    Stream<DynamicTest> everyVectorVerifiesAsTheSpecificationSays() {
        return Vectors.all().stream()
                .map(vector -> DynamicTest.dynamicTest((String) vector.get("name"), () -> {
                    AdmissionVerifier verifier = Vectors.verifierFor(vector);
                    String token = (String) vector.get("token");
                    String method = (String) vector.get("method");
                    String path = (String) vector.get("path");
                    if (Boolean.TRUE.equals(vector.get("valid"))) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> claims = (Map<String, Object>) vector.get("claims");
                        VerifiedAdmission admission = verifier.verify(token, method, path);
                        assertThat(admission.eventId()).isEqualTo(claims.get("evt"));
                        assertThat(admission.sessionId()).isEqualTo(claims.get("sid"));
                        assertThat(admission.visitor()).isEqualTo(claims.get("sub"));
                        assertThat(admission.saleGeneration()).isEqualTo(claims.get("gen"));
                        assertThat(admission.scope()).isEqualTo(claims.get("scp"));
                        assertThat(admission.method()).isEqualTo(method);
                        assertThat(admission.path()).isEqualTo(path);
                        assertThat(admission.expiresAt().getEpochSecond()).isEqualTo(claims.get("exp"));
                    } else {
                        assertThatThrownBy(() -> verifier.verify(token, method, path))
                                .isInstanceOf(AdmissionRejectedException.class)
                                .extracting(e -> ((AdmissionRejectedException) e)
                                        .reason()
                                        .code())
                                .isEqualTo(vector.get("reason"));
                    }
                }));
    }

    @Test
    void theVectorsCoverEveryReasonButAMissingHeader() {
        List<Object> reasons =
                Vectors.all().stream().map(v -> v.get("reason")).distinct().toList();
        assertThat(Stream.of(RejectionReason.values())
                        .filter(r -> r != RejectionReason.MISSING)
                        .map(RejectionReason::code))
                .allMatch(reasons::contains);
    }

    @Test
    void anEventPassedPerRequestWinsOverNone() throws Exception {
        Map<String, Object> valid = Vectors.named("valid");
        AdmissionVerifier anyEvent = AdmissionVerifier.builder()
                .keys(AdmissionKeys.fromJwks(Vectors.jwks()))
                .audience("shop.example")
                .clock(Vectors.clockAt(valid))
                .build();
        String token = (String) valid.get("token");

        assertThat(anyEvent.verify(token, "GET", (String) valid.get("path")).eventId())
                .isEqualTo("summer-tour");
        assertThatThrownBy(() -> anyEvent.verify(token, "winter", "GET", (String) valid.get("path")))
                .extracting(e -> ((AdmissionRejectedException) e).reason())
                .isEqualTo(RejectionReason.WRONG_EVENT);
        assertThatThrownBy(() -> anyEvent.verify(null, "GET", "/"))
                .extracting(e -> ((AdmissionRejectedException) e).reason())
                .isEqualTo(RejectionReason.MISSING);
        assertThatThrownBy(() -> anyEvent.verify("a".repeat(9000), "GET", "/"))
                .extracting(e -> ((AdmissionRejectedException) e).reason())
                .isEqualTo(RejectionReason.MALFORMED);
    }

    @Test
    void aJwksWithoutAnEd25519KeyIsRefused() {
        assertThatThrownBy(() -> AdmissionKeys.fromJwks("{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"r\"}]}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdmissionKeys.fromJwks("{\"keys\":[]} x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
