package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

@KitTest
class CredentialTests {

    @LocalServerPort
    int port;

    TestHttp anonymous;

    TestHttp internal;

    @BeforeEach
    void setUp() {
        anonymous = new TestHttp(port);
        internal = TestHttp.internal(port);
    }

    @Test
    void callsWithoutTheRightInternalCredentialAreForbiddenAndReachNoHandler() {
        HandlerCalls calls = new HandlerCalls();
        assertThat(anonymous
                        .get("/things/1")
                        .assertProblem(403, "internal-credential-required")
                        .get("instance")
                        .asString())
                .isEqualTo("/things/1");
        anonymous.get("/things/1", "X-Waitroom-Internal", "guess").assertProblem(403, "internal-credential-required");
        anonymous
                .get("/things/1", "X-Waitroom-Internal", TestHttp.INTERNAL_TOKEN + "x")
                .assertProblem(403, "internal-credential-required");
        anonymous
                .get("/things/1", "X-Waitroom-Internal", TestHttp.INTERNAL_TOKEN.substring(1))
                .assertProblem(403, "internal-credential-required");
        anonymous
                .get("/things/1", "X-Waitroom-Internal", TestHttp.OPS_TOKEN)
                .assertProblem(403, "internal-credential-required");
        calls.assertNone();

        assertThat(internal.get("/things/1").status()).isEqualTo(200);
    }

    @Test
    void healthAndTheDeclaredPublicPathsNeedNoCredential() {
        assertThat(anonymous.get("/actuator/health").status()).isEqualTo(200);
        assertThat(anonymous.get("/public/jwks").status()).isEqualTo(200);
        // public for GET only
        anonymous.send("POST", "/public/jwks", "{}").assertProblem(403, "internal-credential-required");
        // exemptions match only as written
        anonymous.get("/ACTUATOR/health").assertProblem(403, "internal-credential-required");
        anonymous.get("/actuator/env").assertProblem(403, "internal-credential-required");
        anonymous.get("/actuator").assertProblem(403, "internal-credential-required");
    }

    @Test
    void theOpsApiNeedsTheOpsTokenAsABearerCredential() {
        HandlerCalls calls = new HandlerCalls();
        for (String authorization : new String[] {
            null,
            "Bearer nope",
            "Bearer " + TestHttp.INTERNAL_TOKEN,
            "Basic " + TestHttp.OPS_TOKEN,
            TestHttp.OPS_TOKEN,
            "Bearer " + TestHttp.OPS_TOKEN + "x",
            "Bearer",
            "Bearer "
        }) {
            TestHttp.Response refused = authorization == null
                    ? internal.get("/admin/things/1")
                    : internal.get("/admin/things/1", "Authorization", authorization);
            refused.assertProblem(401, "ops-credential-required");
            assertThat(refused.header("WWW-Authenticate")).as(authorization).startsWith("Bearer");
        }
        internal.get("/ADMIN/things/1").assertProblem(401, "ops-credential-required");
        calls.assertNone();

        assertThat(internal.get("/admin/things/1", "Authorization", "Bearer " + TestHttp.OPS_TOKEN)
                        .status())
                .isEqualTo(200);
        assertThat(internal.get("/admin/things/1", "Authorization", "bearer  " + TestHttp.OPS_TOKEN + " ")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void theInternalCredentialIsCheckedBeforeTheOpsToken() {
        anonymous
                .get("/admin/things/1", "Authorization", "Bearer " + TestHttp.OPS_TOKEN)
                .assertProblem(403, "internal-credential-required");
    }
}
