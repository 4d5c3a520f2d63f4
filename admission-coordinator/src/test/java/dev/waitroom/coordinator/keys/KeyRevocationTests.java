package dev.waitroom.coordinator.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.Headers;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.RandomSecretsInitializer;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.http.HttpJwksSource;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The emergency revoke end to end over real HTTP and PostgreSQL: the ops route unpublishes the key at once, the
 * coordinator stops signing with it, and a verifier wired as the gateway's and booking's are (shared-tokens over the
 * coordinator's JWKS, default refresh) refuses its tokens within seconds, a token it had cached included.
 */
@CoordinatorTest
class KeyRevocationTests {

    @Autowired
    Scenario scenario;

    @Autowired
    SigningKeys keys;

    Http ops;

    Http anonymous;

    AdmissionTokenVerifier gateway;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
        this.anonymous = new Http(this.scenario.port());
        this.gateway = AdmissionTokenVerifier.of(
                HttpJwksSource.of(
                        URI.create("http://127.0.0.1:" + this.scenario.port()),
                        Duration.ofSeconds(2),
                        Map.of(Headers.INTERNAL, RandomSecretsInitializer.GATEWAY.credential())),
                Clock.systemUTC());
    }

    /** A token as a claim signs it, in real time (the verifier runs on the system clock). */
    private String token(String eventId) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        return this.keys
                .issuer()
                .issue(new AdmissionClaims(
                        eventId,
                        1,
                        UUID.randomUUID().toString(),
                        UUID.randomUUID().toString(),
                        "visitor-" + UUID.randomUUID(),
                        now,
                        now.plus(Duration.ofMinutes(20)),
                        UUID.randomUUID().toString()));
    }

    private List<String> publishedKids() {
        Http.Response jwks = this.anonymous.get("/.well-known/jwks.json");
        assertThat(jwks.header("Cache-Control")).contains("no-store");
        List<String> kids = new ArrayList<>();
        jwks.json().path("keys").forEach(key -> kids.add(key.path("kid").asText()));
        return kids;
    }

    @Test
    void revokingTheSigningKeyUnpublishesItAtOnceSignsWithAFreshKeyAndVerifiersRefuseItsTokensWithinSeconds() {
        String revokedKid = this.keys.ring().activeKeyId();
        String cachedToken = token("evt-revoke");
        String uncachedToken = token("evt-revoke");
        assertThat(this.gateway.verify(cachedToken, "evt-revoke", 1)).isNotNull();
        assertThat(this.gateway.cachedTokens()).isEqualTo(1);

        Http.Response revoked = this.ops.post("/admin/keys/" + revokedKid + "/revoke", null);

        assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);
        JsonNode view = revoked.json();
        String replacement = view.path("activeKeyId").asText();
        assertThat(replacement).isNotEqualTo(revokedKid);
        assertThat(view.toString()).doesNotContain("\"d\"");
        assertThat(publishedKids()).doesNotContain(revokedKid).contains(replacement);
        assertThat(this.keys.issuer().keyId())
                .as("the coordinator stops signing with it")
                .isEqualTo(replacement);

        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    assertRefused(cachedToken);
                });
        assertRefused(uncachedToken);
        assertThat(this.gateway.cachedTokens())
                .as("the revoked key's cached verifications are gone")
                .isZero();
        assertThat(this.gateway.verify(token("evt-revoke"), "evt-revoke", 1))
                .as("tokens of the replacement verify")
                .isNotNull();

        Http.Response again = this.ops.post("/admin/keys/" + revokedKid + "/revoke", null);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("activeKeyId").asText()).isEqualTo(replacement);
    }

    @Test
    void revokingAPublishedNextKeyLeavesTheSignerAndUnpublishesOnlyIt() {
        String signer = this.keys.ring().activeKeyId();
        JsonNode rotated = this.ops.post("/admin/keys/rotate", null).json();
        String next = null;
        for (JsonNode key : rotated.path("keys")) {
            if (key.path("state").asText().equals("NEXT")) {
                next = key.path("keyId").asText();
            }
        }
        assertThat(next).isNotNull();
        assertThat(publishedKids()).contains(next);

        Http.Response revoked = this.ops.post("/admin/keys/" + next + "/revoke", null);

        assertThat(revoked.status()).isEqualTo(200);
        assertThat(revoked.json().path("activeKeyId").asText()).isEqualTo(signer);
        assertThat(publishedKids()).doesNotContain(next).contains(signer);
        JsonNode listed = this.ops.get("/admin/keys").json();
        assertThat(listed.path("activeKeyId").asText()).isEqualTo(signer);
        assertThat(listed.toString()).contains("\"REVOKED\"").doesNotContain("\"d\"");
    }

    @Test
    void revokeNeedsTheOpsCredentialAndAnswersProblemsForUnknownOrMalformedIds() {
        String signer = this.keys.ring().activeKeyId();
        Http internalOnly = this.scenario.http();

        Http.Response noOps = internalOnly.post("/admin/keys/" + signer + "/revoke", null);
        Http.Response unknown = this.ops.post("/admin/keys/ed-no-such-key/revoke", null);
        Http.Response malformed = this.ops.post("/admin/keys/" + "x".repeat(65) + "/revoke", null);

        assertThat(noOps.status()).isEqualTo(401);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.problemType()).endsWith("/not-found");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.problemType()).endsWith("/malformed-request");
        assertThat(this.keys.ring().activeKeyId()).isEqualTo(signer);
        assertThat(publishedKids()).contains(signer);
    }

    private void assertRefused(String token) {
        assertThatThrownBy(() -> this.gateway.verify(token, "evt-revoke", 1))
                .isInstanceOfSatisfying(
                        TokenRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectionReason.UNKNOWN_KEY));
    }
}
