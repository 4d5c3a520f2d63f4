package dev.waitroom.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.ops.OperatorTokens;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.TestOperators;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gateway's ops check with named operators over real HTTP: each operator's own token (configured as its hash), a
 * viewer who reads and is refused every change before it reaches an upstream, a current and a previous value for the
 * plain ops token and for an operator's token. Tokens are random for each run.
 */
@GatewayIntegrationTest
class NamedOperatorsTests {

    static final String ALICE = OperatorTokens.generate();

    static final String ALICE_PREVIOUS = OperatorTokens.generate();

    static final String VIC = OperatorTokens.generate();

    static final String OPS_PREVIOUS = OperatorTokens.generate();

    @DynamicPropertySource
    static void operators(DynamicPropertyRegistry registry) {
        registry.add("waitroom.security.ops-token-previous", () -> OPS_PREVIOUS);
        TestOperators.create()
                .admin("alice", ALICE, ALICE_PREVIOUS)
                .viewer("vic", VIC)
                .register(registry);
    }

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    private long adminCallsUpstream() {
        return upstreams
                        .coordinator
                        .received(r -> r.path().startsWith("/admin/"))
                        .size()
                + upstreams
                        .booking
                        .received(r -> r.path().startsWith("/admin/"))
                        .size();
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }

    @Test
    void eachOperatorsOwnTokenAndThePlainOpsTokenPass() {
        Browser browser = new Browser(port);
        for (String token : List.of(ALICE, ALICE_PREVIOUS, StubUpstreams.OPS_TOKEN, OPS_PREVIOUS)) {
            Browser.Reply created = browser.post("/admin/events", "{}", "Authorization", bearer(token));
            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            assertThat(created.json().get("served").asString()).isEqualTo("coordinator");
        }
        assertThat(upstreams.coordinator.received(r -> r.path().equals("/admin/events")).stream()
                        .map(r -> r.header("Authorization").orElse(""))
                        .toList())
                .as("the upstream sees the operator's own credential and authenticates it again")
                .contains(bearer(ALICE), bearer(OPS_PREVIOUS));
    }

    @Test
    void aViewerReadsAndIsRefusedEveryChangeAtTheEdge() {
        Browser browser = new Browser(port);
        assertThat(browser.get("/admin/events/x", "Authorization", bearer(VIC)).status())
                .isEqualTo(200);
        assertThat(browser.get("/admin/events/x/inventory", "Authorization", bearer(VIC))
                        .json()
                        .get("served")
                        .asString())
                .isEqualTo("booking");

        long before = adminCallsUpstream();
        for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
            Browser.Reply refused = browser.send(method, "/admin/events/x/pause", "Authorization", bearer(VIC));
            assertThat(refused.status()).as(method).isEqualTo(403);
            assertThat(refused.header("Content-Type"))
                    .hasValueSatisfying(ct -> assertThat(ct).startsWith("application/problem+json"));
            assertThat(refused.json().get("type").asString()).endsWith("/operator-forbidden");
        }
        assertThat(browser.send("PUT", "/admin/events/x/inventory", "Authorization", bearer(VIC))
                        .status())
                .isEqualTo(403);
        assertThat(adminCallsUpstream()).isEqualTo(before);
    }

    @Test
    void aThirdValueAStoredHashAndOtherSpellingsOfTheOpsPathsAreRefused() {
        Browser browser = new Browser(port);
        long before = adminCallsUpstream();
        for (String token : List.of(OperatorTokens.generate(), OperatorTokens.hash(ALICE), ALICE + "x", "")) {
            Browser.Reply refused = browser.post("/admin/events", "{}", "Authorization", bearer(token));
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.json().get("type").asString()).endsWith("/ops-credential-required");
        }
        for (String path : List.of("/admin;x/events", "/%61dmin/events", "/ADMIN/events", "/admin/./events")) {
            Browser.Reply refused = browser.post(path, "{}");
            assertThat(refused.status()).as(path).isBetween(400, 404);
        }
        assertThat(adminCallsUpstream()).isEqualTo(before);
    }
}
