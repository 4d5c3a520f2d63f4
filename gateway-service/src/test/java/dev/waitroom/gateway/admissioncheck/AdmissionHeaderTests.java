package dev.waitroom.gateway.admissioncheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubCoordinator.Issued;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.gateway.testing.TestAssertionKey;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.AdmissionHeaderKey;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.verifier.AdmissionKeys;
import dev.waitroom.verifier.AdmissionRejectedException;
import dev.waitroom.verifier.AdmissionVerifier;
import dev.waitroom.verifier.RejectionReason;
import dev.waitroom.verifier.VerifiedAdmission;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The {@code Waitroom-Admission} header (docs/integration/admission-header.md) as an origin sees it: every shop request
 * the gateway forwards carries one that the Java verifier, reading the gateway's published JWKS, accepts for exactly
 * that method, path, event and session; nothing else carries one, and a client's copy never gets through.
 */
@GatewayIntegrationTest
class AdmissionHeaderTests {

    private static final String FORGED = "eyJhbGciOiJub25lIn0.e30.";

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    record Shopper(Browser browser, String visitor, String event) {}

    Shopper shopper() {
        Browser browser = new Browser(port);
        String event = "ah-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        assertThat(browser.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String visitor =
                visitorCodec.decode(browser.cookie("wr_vid").orElseThrow()).value();
        return new Shopper(browser, visitor, event);
    }

    AdmissionVerifier origin() {
        return AdmissionVerifier.builder()
                .keys(AdmissionKeys.fromUrl(
                        URI.create("http://127.0.0.1:" + port + AdmissionHeaders.JWKS_PATH), Duration.ofMinutes(5)))
                .audience("booking")
                .build();
    }

    Browser.Reply call(Shopper shopper, String method, String path, String... headers) {
        return method.equals("POST")
                ? shopper.browser().post(path, "{\"seatIds\":[\"A1\"]}", headers)
                : shopper.browser().send(method, path, headers);
    }

    RecordedRequest lastAtBooking(String method, String path) {
        List<RecordedRequest> received = upstreams.booking.received(
                r -> r.method().equals(method) && r.path().equals(path));
        assertThat(received).as("%s %s reached booking", method, path).isNotEmpty();
        return received.get(received.size() - 1);
    }

    static List<Arguments> shopRoutes() {
        return List.of(
                Arguments.of("GET", "/seats"),
                Arguments.of("POST", "/holds"),
                Arguments.of("POST", "/orders"),
                Arguments.of("GET", "/holds/h-1"),
                Arguments.of("DELETE", "/holds/h-1"),
                Arguments.of("GET", "/orders/o-1"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("shopRoutes")
    void everyForwardedShopRequestCarriesAHeaderTheOriginVerifiesForExactlyThatRequest(String method, String route)
            throws Exception {
        Shopper shopper = shopper();
        Issued issued = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        String path = "/events/" + shopper.event() + "/shop" + route;
        Browser.Reply reply = call(shopper, method, path, "Authorization", "Bearer " + issued.token());
        assertThat(reply.status()).as(reply.toString()).isLessThan(300);

        RecordedRequest received = lastAtBooking(method, path);
        String header = received.header(AdmissionHeader.NAME).orElseThrow();
        AdmissionVerifier origin = origin();
        VerifiedAdmission admission = origin.verify(header, shopper.event(), method, received.path());
        assertThat(admission.sessionId()).isEqualTo(issued.sessionId());
        assertThat(admission.visitor()).isEqualTo(shopper.visitor());
        assertThat(admission.saleGeneration()).isEqualTo(1);
        // a live session's token is shopping on the order-status route too (AdmissionTests: an expired one is not)
        assertThat(admission.scope()).isEqualTo("shopping");
        assertThat(Duration.between(admission.issuedAt(), admission.expiresAt()))
                .isEqualTo(AdmissionHeader.LIFETIME);
        assertThatThrownBy(() -> origin.verify(header, shopper.event(), method.equals("GET") ? "POST" : "GET", path))
                .isInstanceOfSatisfying(
                        AdmissionRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectionReason.WRONG_METHOD));
        assertThatThrownBy(() -> origin.verify(header, "other-event", method, path))
                .isInstanceOfSatisfying(
                        AdmissionRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectionReason.WRONG_EVENT));
    }

    @Test
    void aClientsHeaderIsReplacedOnShopRoutesAndDroppedEverywhereElse() throws Exception {
        Shopper shopper = shopper();
        Issued issued = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        String seats = "/events/" + shopper.event() + "/shop/seats";

        Browser.Reply refused = call(shopper, "GET", seats, AdmissionHeader.NAME, FORGED);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(upstreams.booking.received(r -> r.path().equals(seats))).isEmpty();

        call(shopper, "GET", seats, AdmissionHeader.NAME, FORGED, "Authorization", "Bearer " + issued.token());
        RecordedRequest received = lastAtBooking("GET", seats);
        assertThat(received.headers().get(AdmissionHeader.NAME.toLowerCase())).hasSize(1);
        assertThat(origin().verify(received.header(AdmissionHeader.NAME).orElseThrow(), "GET", seats)
                        .sessionId())
                .isEqualTo(issued.sessionId());

        String join = "/events/" + shopper.event() + "/queue";
        shopper.browser().post(join, "{}", AdmissionHeader.NAME, FORGED);
        assertThat(upstreams.queue.lastReceived(join).orElseThrow().header(AdmissionHeader.NAME))
                .isEmpty();
        shopper.browser()
                .post("/webhooks/payments", "{}", "X-Payment-Signature", "sha256=00", AdmissionHeader.NAME, FORGED);
        assertThat(upstreams
                        .booking
                        .lastReceived("/webhooks/payments")
                        .orElseThrow()
                        .header(AdmissionHeader.NAME))
                .isEmpty();
    }

    @Test
    void bypassRequestsCarryABypassStatementForTheVerifiedVisitor() {
        Shopper shopper = shopper();
        upstreams
                .queue
                .event(shopper.event())
                .mode("BYPASS", upstreams.coordinator.signMode(shopper.event(), "BYPASS", 3, Instant.now()))
                .saleGeneration(3);
        String seats = "/events/" + shopper.event() + "/shop/seats";
        try {
            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() ->
                            assertThat(call(shopper, "GET", seats).status()).isEqualTo(200));
            VerifiedAdmission admission = origin().verify(
                            lastAtBooking("GET", seats)
                                    .header(AdmissionHeader.NAME)
                                    .orElseThrow(),
                            "GET",
                            seats);
            assertThat(admission.scope()).isEqualTo("bypass");
            assertThat(admission.visitor()).isEqualTo(shopper.visitor());
            assertThat(admission.saleGeneration()).isEqualTo(3);
        } catch (AdmissionRejectedException e) {
            throw new AssertionError(e);
        } finally {
            upstreams.queue.event(shopper.event()).mode("QUEUEING");
        }
    }

    @Test
    void publishesItsKeysAsAJwks() {
        Browser.Reply jwks = new Browser(port).get(AdmissionHeaders.JWKS_PATH);

        assertThat(jwks.status()).isEqualTo(200);
        assertThat(jwks.header("Content-Type")).hasValue("application/jwk-set+json");
        assertThat(jwks.body())
                .startsWith("{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\"")
                .doesNotContain("\"d\"");
    }

    @Test
    void signsWithTheConfiguredKeyAndPublishesThePreviousOne() {
        AdmissionHeaderKey current = AdmissionHeaderKey.generate();
        AdmissionHeaderKey previous = AdmissionHeaderKey.generate();
        AdmissionHeaders configured =
                new AdmissionHeaders(current.toBase64(), previous.toBase64(), TestAssertionKey.ASSERTION_KEY, "shop");
        AdmissionHeaders derived = new AdmissionHeaders("", "", TestAssertionKey.ASSERTION_KEY, "booking");

        assertThat(configured.jwks()).contains(current.keyId(), previous.keyId());
        assertThat(derived.jwks())
                .as("without a key of its own, every gateway with the same assertion key agrees on one")
                .isEqualTo(new AdmissionHeaders("", "", TestAssertionKey.ASSERTION_KEY, "booking").jwks())
                .doesNotContain(current.keyId());
        for (String bad : new String[] {"c2hvcnQ=", "not base64 !"}) {
            assertThatThrownBy(() -> new AdmissionHeaders(bad, "", TestAssertionKey.ASSERTION_KEY, "booking"))
                    .hasMessageContaining("WAITROOM_SECURITY_ADMISSIONHEADERKEY")
                    .message()
                    .doesNotContain(bad);
        }
        assertThatThrownBy(() -> new AdmissionHeaders("", "", "", "booking"))
                .hasMessageContaining("WAITROOM_SECURITY_ADMISSIONHEADERKEY");
        assertThatThrownBy(() -> new AdmissionHeaders("", "", TestAssertionKey.ASSERTION_KEY, "a b"))
                .hasMessageContaining("audience");
    }
}
