package dev.waitroom.gateway.admissioncheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubCoordinator.Issued;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.verifier.AdmissionKeys;
import dev.waitroom.verifier.AdmissionVerifier;
import dev.waitroom.verifier.VerifiedAdmission;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code /forward-auth} (docs/integration/forward-auth.md) as a proxy calls it: the admission check of the original
 * request, answered 200 with a {@code Waitroom-Admission} header for exactly the original method and path, or the
 * check's own refusal; never forwarded anywhere. ForwardAuthNginxTests runs the same through Debian's nginx.
 */
@GatewayIntegrationTest
class ForwardAuthTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    record Shopper(Browser browser, String event, Issued issued) {}

    Shopper admitted() {
        Browser browser = new Browser(port);
        String event = "fa-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        assertThat(browser.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String visitor =
                visitorCodec.decode(browser.cookie("wr_vid").orElseThrow()).value();
        return new Shopper(browser, event, upstreams.coordinator.admit(event, visitor, 1));
    }

    VerifiedAdmission verified(Browser.Reply reply, String event, String method, String path) throws Exception {
        return AdmissionVerifier.builder()
                .keys(AdmissionKeys.fromUrl(
                        URI.create("http://127.0.0.1:" + port + AdmissionHeaders.JWKS_PATH), Duration.ofMinutes(5)))
                .audience("booking")
                .eventId(event)
                .build()
                .verify(reply.header(AdmissionHeader.NAME).orElseThrow(), method, path);
    }

    @Test
    void answersTheAdmissionOfTheOriginalRequestWithoutForwardingIt() throws Exception {
        Shopper shopper = admitted();
        String holds = "/events/" + shopper.event() + "/shop/holds";

        Browser.Reply nginx = shopper.browser()
                .get(
                        "/forward-auth",
                        "X-Original-URI",
                        holds + "?from=nginx",
                        "X-Original-Method",
                        "POST",
                        "Authorization",
                        "Bearer " + shopper.issued().token());

        assertThat(nginx.status()).as(nginx.toString()).isEqualTo(200);
        assertThat(nginx.header("Cache-Control")).hasValue("no-store");
        assertThat(nginx.body()).isEmpty();
        assertThat(verified(nginx, shopper.event(), "POST", holds).sessionId())
                .isEqualTo(shopper.issued().sessionId());
        assertThat(nginx.header("X-Waitroom-Internal")).isEmpty();
        assertThat(upstreams.booking.received(r -> r.path().equals(holds))).isEmpty();
    }

    @Test
    void understandsTraefikAndEnvoyToo() throws Exception {
        Shopper shopper = admitted();
        String seats = "/events/" + shopper.event() + "/shop/seats";
        String bearer = "Bearer " + shopper.issued().token();

        Browser.Reply traefik = shopper.browser()
                .get("/forward-auth", "X-Forwarded-Uri", seats, "X-Forwarded-Method", "GET", "Authorization", bearer);
        Browser.Reply envoy = shopper.browser().send("DELETE", "/forward-auth" + seats, "Authorization", bearer);

        assertThat(verified(traefik, shopper.event(), "GET", seats).scope()).isEqualTo("shopping");
        assertThat(verified(envoy, shopper.event(), "DELETE", seats).method()).isEqualTo("DELETE");
    }

    @Test
    void refusesWithoutAnAdmissionAsTheProtectedRouteDoes() {
        Shopper shopper = admitted();
        String seats = "/events/" + shopper.event() + "/shop/seats";

        Browser.Reply refused =
                shopper.browser().get("/forward-auth", "X-Original-URI", seats, "X-Original-Method", "GET");

        refused.assertProblem(401, "admission-token-required");
        assertThat(refused.header(AdmissionHeader.NAME)).isEmpty();
        assertThat(upstreams.booking.received(r -> r.path().equals(seats))).isEmpty();
    }

    @Test
    void acceptsOnlyPathsTheGatewayProtects() {
        Shopper shopper = admitted();
        String bearer = "Bearer " + shopper.issued().token();
        for (String path : new String[] {
            "/events/" + shopper.event() + "/queue/status",
            "/admin/events/" + shopper.event() + "/inventory",
            "/events/" + shopper.event() + "/shopping-session/leave",
            "/forward-auth",
            "relative"
        }) {
            Browser.Reply reply = shopper.browser()
                    .get("/forward-auth", "X-Original-URI", path, "X-Original-Method", "GET", "Authorization", bearer);
            reply.assertProblem(400, "bad-path");
        }
        assertThat(upstreams.booking.received(r -> r.path().contains(shopper.event())))
                .isEmpty();
        shopper.browser()
                .get(
                        "/forward-auth",
                        "X-Original-URI",
                        "/events/" + shopper.event() + "/shop/seats",
                        "X-Original-Method",
                        "get()",
                        "Authorization",
                        bearer)
                .assertProblem(400, "bad-path");
    }
}
