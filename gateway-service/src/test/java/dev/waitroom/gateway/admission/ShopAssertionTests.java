package dev.waitroom.gateway.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubCoordinator.Issued;
import dev.waitroom.gateway.testing.StubHttpServer.Recorded;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.gateway.testing.TestAssertionKey;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.ShopAssertion;
import dev.waitroom.tokens.ShopAssertionCodec;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorCookieCodec;
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
 * The gateway's per-request shop assertion (docs/security/booking.md): every shop request it forwards carries
 * one for exactly that method, path and session, signed with the key booking verifies with; nothing else it forwards
 * carries one, and a client's copy never gets through.
 */
@GatewayIntegrationTest
class ShopAssertionTests {

    private static final String FORGED = "sa1.forged.AAAA.AAAAAAAAAAAAAAAAAAAAAA";

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    record Shopper(Browser browser, String visitor, String event) {}

    Shopper shopper() {
        Browser browser = new Browser(port);
        String event = "sa-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        assertThat(browser.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String visitor =
                visitorCodec.decode(browser.cookie("wr_vid").orElseThrow()).value();
        return new Shopper(browser, visitor, event);
    }

    Browser.Reply call(Shopper shopper, String method, String path, String... headers) {
        return method.equals("POST")
                ? shopper.browser().post(path, "{\"seatIds\":[\"A1\"]}", headers)
                : shopper.browser().send(method, path, headers);
    }

    Recorded lastAtBooking(String method, String path) {
        List<Recorded> received = upstreams.booking.received(
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
    void everyForwardedShopRequestCarriesAnAssertionForExactlyThatRequestAndSession(String method, String route) {
        Shopper shopper = shopper();
        Issued issued = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        String path = "/events/" + shopper.event() + "/shop" + route;
        Browser.Reply reply = call(shopper, method, path, "Authorization", "Bearer " + issued.token());
        assertThat(reply.status()).as(reply.toString()).isLessThan(300);

        Recorded received = lastAtBooking(method, path);
        String assertion = received.header(Headers.ASSERTION).orElseThrow();
        ShopAssertion verified = TestAssertionKey.codec().verify(assertion, method, received.path(), Instant.now());
        assertThat(verified.eventId()).isEqualTo(shopper.event());
        assertThat(verified.sessionId()).isEqualTo(issued.sessionId());
        assertThat(verified.visitor()).isEqualTo(shopper.visitor());
        assertThat(verified.saleGeneration()).isEqualTo(1);
        assertThat(verified.scope())
                .isEqualTo(
                        method.equals("GET") && route.startsWith("/orders/")
                                ? ShopAssertion.Scope.ORDER_STATUS
                                : ShopAssertion.Scope.SHOPPING);
        assertThat(verified.expiresAt())
                .isBetween(
                        Instant.now(),
                        Instant.now().plus(ShopAssertion.LIFETIME).plusSeconds(1));
        assertThat(received.header(Headers.INTERNAL)).contains(StubUpstreams.INTERNAL_TOKEN);
        // for this request only
        assertThatThrownBy(() -> TestAssertionKey.codec()
                        .verify(assertion, method.equals("GET") ? "POST" : "GET", received.path(), Instant.now()))
                .isInstanceOf(TokenRejectedException.class);
        assertThatThrownBy(() -> TestAssertionKey.codec()
                        .verify(assertion, method, "/events/" + shopper.event() + "/shop/seats/x", Instant.now()))
                .isInstanceOf(TokenRejectedException.class);
    }

    @Test
    void aClientsAssertionIsReplacedOnShopRoutesAndDroppedEverywhereElse() {
        Shopper shopper = shopper();
        Issued issued = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        String seats = "/events/" + shopper.event() + "/shop/seats";

        Browser.Reply refused = call(shopper, "GET", seats, Headers.ASSERTION, FORGED);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(upstreams.booking.received(r -> r.path().equals(seats))).isEmpty();

        Browser.Reply ok =
                call(shopper, "GET", seats, Headers.ASSERTION, FORGED, "Authorization", "Bearer " + issued.token());
        assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
        Recorded received = lastAtBooking("GET", seats);
        assertThat(received.headers().get(Headers.ASSERTION.toLowerCase())).hasSize(1);
        assertThat(received.header(Headers.ASSERTION)).isPresent().get().isNotEqualTo(FORGED);
        assertThat(TestAssertionKey.codec()
                        .verify(received.header(Headers.ASSERTION).orElseThrow(), "GET", seats, Instant.now())
                        .sessionId())
                .isEqualTo(issued.sessionId());

        // routes without an admission check: the header never reaches the service
        String join = "/events/" + shopper.event() + "/queue";
        shopper.browser().post(join, "{}", Headers.ASSERTION, FORGED);
        assertThat(upstreams.queue.lastReceived(join).orElseThrow().header(Headers.ASSERTION))
                .isEmpty();
        shopper.browser()
                .post("/webhooks/payments", "{}", "X-Payment-Signature", "sha256=00", Headers.ASSERTION, FORGED);
        assertThat(upstreams
                        .booking
                        .lastReceived("/webhooks/payments")
                        .orElseThrow()
                        .header(Headers.ASSERTION))
                .isEmpty();
        String inventory = "/admin/events/" + shopper.event() + "/inventory";
        shopper.browser()
                .get(inventory, "Authorization", "Bearer " + StubUpstreams.OPS_TOKEN, Headers.ASSERTION, FORGED);
        assertThat(upstreams.booking.lastReceived(inventory).orElseThrow().header(Headers.ASSERTION))
                .isEmpty();
    }

    @Test
    void aRejectedRequestReachesBookingWithNoAssertion() {
        Shopper shopper = shopper();
        Issued ended = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        upstreams.registry.end(shopper.event(), ended.sessionId());
        String holds = "/events/" + shopper.event() + "/shop/holds";
        Browser.Reply reply = call(shopper, "POST", holds, "Authorization", "Bearer " + ended.token());
        assertThat(reply.status()).isEqualTo(401);
        assertThat(reply.json().get("type").asString()).endsWith("/admission-session-ended");
        assertThat(upstreams.booking.received(r -> r.path().equals(holds))).isEmpty();
    }

    @Test
    void bypassRequestsCarryABypassAssertionForTheVerifiedVisitor() {
        Shopper shopper = shopper();
        upstreams.queue.event(shopper.event()).mode("BYPASS").saleGeneration(3);
        String seats = "/events/" + shopper.event() + "/shop/seats";
        try {
            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(call(shopper, "GET", seats, Headers.ASSERTION, FORGED)
                                    .status())
                            .isEqualTo(200));
            Recorded received = lastAtBooking("GET", seats);
            assertThat(received.header(Headers.BYPASS)).contains(shopper.event());
            ShopAssertion verified = TestAssertionKey.codec()
                    .verify(received.header(Headers.ASSERTION).orElseThrow(), "GET", seats, Instant.now());
            assertThat(verified.scope()).isEqualTo(ShopAssertion.Scope.BYPASS);
            assertThat(verified.visitor()).isEqualTo(shopper.visitor());
            assertThat(verified.sessionId()).isEqualTo("bypass-" + shopper.visitor());
            assertThat(verified.saleGeneration()).isEqualTo(3);
        } finally {
            upstreams.queue.event(shopper.event()).mode("QUEUEING");
        }
    }

    @Test
    void assertionsAreSignedWithTheConfiguredKeyOnly() {
        Shopper shopper = shopper();
        Issued issued = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        String seats = "/events/" + shopper.event() + "/shop/seats";
        call(shopper, "GET", seats, "Authorization", "Bearer " + issued.token());
        String assertion = lastAtBooking("GET", seats).header(Headers.ASSERTION).orElseThrow();
        ShopAssertionCodec otherKey = ShopAssertionCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));
        assertThatThrownBy(() -> otherKey.verify(assertion, "GET", seats, Instant.now()))
                .isInstanceOfSatisfying(
                        TokenRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectionReason.UNKNOWN_KEY));
    }

    @Test
    void theGatewayRefusesToStartWithoutAUsableAssertionKey() {
        for (String key : new String[] {"", "  ", null, "c2hvcnQ=", "not base64 !"}) {
            assertThatThrownBy(
                            () -> new AdmissionTokenGatewayFilterFactory(null, null, null, null, null, null, null, key))
                    .hasMessageContaining("WAITROOM_SECURITY_ASSERTIONKEY")
                    .message()
                    .doesNotContain(key == null || key.isBlank() ? "\u0000" : key);
        }
    }
}
