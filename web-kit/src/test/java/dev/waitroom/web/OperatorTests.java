package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.ops.OperatorTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Named operators over real HTTP: each known by a token of their own (configured as its hash), a viewer who reads and
 * changes nothing, and a current and a previous value for every credential. Tokens are random for each run.
 */
@KitTest
@ExtendWith(OutputCaptureExtension.class)
class OperatorTests {

    static final String ALICE = OperatorTokens.generate();

    static final String ALICE_PREVIOUS = OperatorTokens.generate();

    static final String BOB = OperatorTokens.generate();

    static final String VIC = OperatorTokens.generate();

    static final String OPS_PREVIOUS = OperatorTokens.generate();

    @DynamicPropertySource
    static void operators(DynamicPropertyRegistry registry) {
        registry.add("waitroom.security.ops-token-previous", () -> OPS_PREVIOUS);
        registry.add("waitroom.security.operators[0].name", () -> "alice");
        registry.add("waitroom.security.operators[0].role", () -> "admin");
        registry.add("waitroom.security.operators[0].token-hash", () -> OperatorTokens.hash(ALICE));
        registry.add("waitroom.security.operators[0].token-hash-previous", () -> OperatorTokens.hash(ALICE_PREVIOUS));
        registry.add("waitroom.security.operators[1].name", () -> "bob@example.org");
        registry.add("waitroom.security.operators[1].role", () -> "ADMIN");
        registry.add("waitroom.security.operators[1].token-hash", () -> OperatorTokens.hash(BOB));
        registry.add("waitroom.security.operators[2].name", () -> "vic");
        registry.add("waitroom.security.operators[2].role", () -> "viewer");
        registry.add("waitroom.security.operators[2].token-hash", () -> OperatorTokens.hash(VIC));
    }

    @LocalServerPort
    int port;

    TestHttp internal;

    @BeforeEach
    void setUp() {
        internal = TestHttp.internal(port);
    }

    private TestHttp.Response whoami(String method, String token) {
        return internal.send(method, "/admin/whoami", null, "Authorization", "Bearer " + token);
    }

    @Test
    void eachOperatorIsKnownToHandlersByTheirOwnToken(CapturedOutput output) {
        JsonNode alice = whoami("POST", ALICE).json();
        JsonNode bob = whoami("POST", BOB).json();
        JsonNode ops = whoami("GET", TestHttp.OPS_TOKEN).json();

        assertThat(alice.path("name").asString()).isEqualTo("alice");
        assertThat(alice.path("role").asString()).isEqualTo("admin");
        assertThat(alice.path("mdc").asString())
                .as("the operator is in the MDC")
                .isEqualTo("alice");
        assertThat(bob.path("name").asString()).isEqualTo("bob@example.org");
        assertThat(ops.path("name").asString()).as("the plain ops token").isEqualTo("ops");
        assertThat(output.getOut())
                .as("every change is audited under the operator's name")
                .contains("Ops POST /admin/whoami by alice (admin): 200", "Ops POST /admin/whoami by bob@example.org")
                .doesNotContain(ALICE, BOB, OperatorTokens.hash(ALICE));
    }

    @Test
    void aViewerReadsAndIsRefusedEveryChange(CapturedOutput output) {
        assertThat(whoami("GET", VIC).json().path("role").asString()).isEqualTo("viewer");
        assertThat(internal.get("/admin/things/1", "Authorization", "Bearer " + VIC)
                        .status())
                .isEqualTo(200);

        HandlerCalls calls = new HandlerCalls();
        for (String method : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
            TestHttp.Response refused = whoami(method, VIC);
            refused.assertProblem(403, "operator-forbidden");
            assertThat(refused.json().path("detail").asString()).contains("vic", "viewer");
        }
        calls.assertNone();
        assertThat(output.getOut()).contains("Ops POST /admin/whoami refused: operator vic has the viewer role");
    }

    @Test
    void aPreviousCredentialIsAcceptedAndAThirdIsRefused() {
        assertThat(whoami("GET", ALICE_PREVIOUS).json().path("name").asString()).isEqualTo("alice");
        assertThat(whoami("GET", OPS_PREVIOUS).json().path("name").asString()).isEqualTo("ops");
        assertThat(new TestHttp(port)
                        .get("/things/1", "X-Waitroom-Internal", KitCredentials.GATEWAY_PREVIOUS.value())
                        .status())
                .isEqualTo(200);

        HandlerCalls calls = new HandlerCalls();
        whoami("GET", OperatorTokens.generate()).assertProblem(401, "ops-credential-required");
        whoami("GET", OperatorTokens.hash(ALICE)).assertProblem(401, "ops-credential-required");
        whoami("GET", ALICE + ALICE_PREVIOUS).assertProblem(401, "ops-credential-required");
        new TestHttp(port)
                .get("/things/1", "X-Waitroom-Internal", OperatorTokens.generate())
                .assertProblem(403, "internal-credential-required");
        internal.get("/admin/things/1", "Authorization", "Bearer " + KitCredentials.GATEWAY_PREVIOUS.value())
                .assertProblem(401, "ops-credential-required");
        calls.assertNone();
    }

    @Test
    void aHandlerThatAsksForAnOperatorOffTheOpsPathsGetsNone() {
        internal.get("/whoami", "Authorization", "Bearer " + ALICE).assertProblem(401, "ops-credential-required");
    }

    @Test
    void otherSpellingsOfTheOpsPathsNeedAnOperatorToo() {
        HandlerCalls calls = new HandlerCalls();
        for (String target : new String[] {
            "/admin;x/whoami", "/%61dmin/whoami", "//admin/whoami", "/ADMIN/whoami", "/admin/whoami;v=1"
        }) {
            internal.rawGet(target, true).assertProblem(401, "ops-credential-required");
        }
        calls.assertNone();
    }
}
