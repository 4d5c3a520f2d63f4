package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.ServiceCredential;
import dev.waitroom.contract.WaitroomService;
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
    void callsWithoutAKnownServicesCredentialAreForbiddenAndReachNoHandler() {
        HandlerCalls calls = new HandlerCalls();
        String gateway = KitCredentials.GATEWAY.value();
        assertThat(anonymous
                        .get("/things/1")
                        .assertProblem(403, "internal-credential-required")
                        .get("instance")
                        .asString())
                .isEqualTo("/things/1");
        for (String refused : new String[] {
            "guess",
            gateway + "x",
            gateway.substring(1),
            gateway.substring(0, gateway.length() - 1),
            // tampered: one character of the secret changed
            gateway.substring(0, gateway.length() - 1) + (gateway.endsWith("A") ? "B" : "A"),
            // forged: the right form, a secret of its own
            ServiceCredential.generate(WaitroomService.GATEWAY).value(),
            // the gateway's name on booking's secret
            "wrs_gateway_" + KitCredentials.BOOKING.value().substring("wrs_booking_".length()),
            // the hash this service is configured with is not the credential
            KitCredentials.GATEWAY.sha256Hex(),
            // a service this one does not know as a caller
            KitCredentials.COORDINATOR.value(),
            gateway.toUpperCase(java.util.Locale.ROOT),
            TestHttp.OPS_TOKEN,
            ""
        }) {
            anonymous
                    .get("/things/1", "X-Waitroom-Internal", refused)
                    .assertProblem(403, "internal-credential-required");
        }
        calls.assertNone();

        assertThat(internal.get("/things/1").status()).isEqualTo(200);
    }

    @Test
    void aServicesValidCredentialOnARouteItIsNotAllowedIsRefusedWithCallerNotAllowed() {
        TestHttp booking = anonymous.with("X-Waitroom-Internal", KitCredentials.BOOKING.value());
        HandlerCalls calls = new HandlerCalls();
        booking.get("/things/1").assertProblem(403, "caller-not-allowed");
        booking.get("/admin/things/1", "Authorization", "Bearer " + TestHttp.OPS_TOKEN)
                .assertProblem(403, "caller-not-allowed");
        booking.send("POST", "/internal/caller", "{}").assertProblem(403, "caller-not-allowed");
        // its rules match only as written
        booking.get("/INTERNAL/things/1").assertProblem(403, "caller-not-allowed");
        booking.get("/internal/things/1/more").assertProblem(403, "caller-not-allowed");
        assertThat(booking.get("/things/1").json().path("detail").asString()).contains("booking");
        calls.assertNone();

        assertThat(booking.get("/internal/things/1").status()).isEqualTo(200);
        assertThat(booking.get("/internal/caller").json().path("caller").asString())
                .isEqualTo("booking");
    }

    @Test
    void handlersAndTheLogKnowWhichServiceCalled() {
        TestHttp.Response gateway = internal.send("POST", "/internal/caller", "{}");
        assertThat(gateway.json().path("caller").asString()).isEqualTo("gateway");
        assertThat(gateway.json().path("mdc").asString()).isEqualTo("gateway");
        TestHttp.Response booking = anonymous
                .with("X-Waitroom-Internal", KitCredentials.BOOKING.value())
                .get("/internal/caller");
        assertThat(booking.json().path("mdc").asString()).isEqualTo("booking");
    }

    @Test
    void duringARotationThePreviousCredentialIsAcceptedToo() {
        assertThat(anonymous
                        .get("/things/1", "X-Waitroom-Internal", KitCredentials.GATEWAY_PREVIOUS.value())
                        .status())
                .isEqualTo(200);
        assertThat(anonymous
                        .with("X-Waitroom-Internal", KitCredentials.GATEWAY_PREVIOUS.value())
                        .get("/internal/caller")
                        .json()
                        .path("caller")
                        .asString())
                .isEqualTo("gateway");
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
            "Bearer " + KitCredentials.GATEWAY.value(),
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
