package dev.waitroom.gateway.admissioncheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubCoordinator.Issued;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.verifier.AdmissionKeys;
import dev.waitroom.verifier.AdmissionVerifier;
import dev.waitroom.verifier.VerifiedAdmission;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What a shop origin receives from the gateway (docs/reference/contracts.md#what-an-origin-receives), seen by a real recording
 * HTTP server on loopback: never the internal credential, the old assertion, any {@code X-Waitroom-*} header or any
 * Waitroom cookie; the shop's own cookies and {@code Authorization} exactly as the browser sent them; the admission
 * as one {@code Waitroom-Admission} header that a verifier accepts. Waitroom's own services still get the internal
 * credential.
 */
@GatewayIntegrationTest
class WhatTheOriginReceivesTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    /** No cookie jar: the Cookie header goes exactly as a test writes it. */
    final HttpClient raw =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    record Shopper(String visitorCookie, String visitor, String event, Issued issued) {}

    Shopper admitted() {
        Browser browser = new Browser(port);
        String event = "or-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        assertThat(browser.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String cookie = browser.cookie("wr_vid").orElseThrow();
        String visitor = visitorCodec.decode(cookie).value();
        return new Shopper(cookie, visitor, event, upstreams.coordinator.admit(event, visitor, 1));
    }

    HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return raw.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    RecordedRequest lastAtShop(String path) {
        List<RecordedRequest> received =
                upstreams.booking.received(r -> r.path().equals(path));
        assertThat(received).as("%s reached the shop", path).isNotEmpty();
        return received.get(received.size() - 1);
    }

    VerifiedAdmission verified(RecordedRequest received) throws Exception {
        return AdmissionVerifier.builder()
                .keys(AdmissionKeys.fromUrl(
                        URI.create("http://127.0.0.1:" + port + AdmissionHeaders.JWKS_PATH), Duration.ofMinutes(5)))
                .audience("booking")
                .build()
                .verify(received.header(AdmissionHeader.NAME).orElseThrow(), received.method(), received.path());
    }

    @Test
    void theShopGetsItsOwnCookiesAndAuthorizationUntouchedAndNoWaitroomCookieOrHeader() throws Exception {
        Shopper shopper = admitted();
        String path = "/events/" + shopper.event() + "/shop/seats";

        HttpResponse<String> reply = get(
                path,
                "Cookie",
                "shop_session=s%3D1; wr_vid=" + shopper.visitorCookie() + "; wr_at_" + shopper.event() + "="
                        + shopper.issued().token()
                        + "; wr_qt=ticket; __Host-wr_vid=planted; __Secure-wr_at=planted; wr_at_other=x;"
                        + " cart=\"a b\"; wr_vidx=kept",
                "Authorization",
                "Bearer shop-own-sign-in-token",
                "X-Waitroom-Internal",
                "forged-credential",
                "X-Waitroom-Assertion",
                "sa1.forged",
                "X-Waitroom-Visitor",
                "AAAAAAAAAAAAAAAAAAAAAA",
                AdmissionHeader.NAME,
                "eyJhbGciOiJub25lIn0.e30.");

        // a valid admission cookie beside the shop's own bearer token is no longer refused
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        RecordedRequest received = lastAtShop(path);
        assertThat(received.header("Authorization")).contains("Bearer shop-own-sign-in-token");
        assertThat(received.header("Cookie")).contains("shop_session=s%3D1; cart=\"a b\"; wr_vidx=kept");
        assertThat(received.headers().keySet()).noneMatch(name -> name.startsWith("x-waitroom-"));
        assertThat(received.headers().get(AdmissionHeader.NAME.toLowerCase())).hasSize(1);
        VerifiedAdmission admission = verified(received);
        assertThat(admission.eventId()).isEqualTo(shopper.event());
        assertThat(admission.sessionId()).isEqualTo(shopper.issued().sessionId());
        assertThat(admission.visitor()).isEqualTo(shopper.visitor());
        assertThat(admission.scope()).isEqualTo("shopping");
    }

    @Test
    void aBearerAdmissionTokenIsRemovedAndTheShopsCookiesKeptInOrder() throws Exception {
        Shopper shopper = admitted();
        String path = "/events/" + shopper.event() + "/shop/seats";

        HttpResponse<String> reply = get(
                path,
                "Cookie",
                "a=1; wr_vid=" + shopper.visitorCookie() + "; b=2",
                "Authorization",
                "Bearer " + shopper.issued().token());

        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        RecordedRequest received = lastAtShop(path);
        assertThat(received.headers().get("cookie")).containsExactly("a=1; b=2");
        // a Bearer admission token (no admission cookie) is Waitroom's: removed, the header says it instead
        assertThat(received.header("Authorization")).isEmpty();
        assertThat(verified(received).sessionId()).isEqualTo(shopper.issued().sessionId());
    }

    @Test
    void theAdmissionTokenSentBothAsCookieAndBearerNeverReachesTheShop() throws Exception {
        Shopper shopper = admitted();
        String path = "/events/" + shopper.event() + "/shop/seats";
        String token = shopper.issued().token();

        HttpResponse<String> reply = get(
                path,
                "Cookie",
                "wr_vid=" + shopper.visitorCookie() + "; wr_at_" + shopper.event() + "=" + token,
                "Authorization",
                "Bearer " + token);

        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        RecordedRequest received = lastAtShop(path);
        assertThat(received.header("Authorization")).isEmpty();
        assertThat(received.headers().values().stream().flatMap(List::stream)).noneMatch(v -> v.contains(token));
    }

    @Test
    void aCookieHeaderWithoutWaitroomCookiesReachesTheShopByteForByte() throws Exception {
        String own = "a=1;b=2 ;  c=\"x y\"";
        HttpRequest webhook = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhooks/payments"))
                .timeout(Duration.ofSeconds(10))
                .header("Cookie", own)
                .header("X-Payment-Signature", "sha256=00")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        assertThat(raw.send(webhook, HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(200);
        RecordedRequest received =
                upstreams.booking.lastReceived("/webhooks/payments").orElseThrow();
        assertThat(received.headers().get("cookie")).containsExactly(own);
    }

    @Test
    void anOrderReadIsShoppingForALiveSessionAndOrderStatusForAnExpiredOrEndedOne() throws Exception {
        Shopper shopper = admitted();
        String order = "/events/" + shopper.event() + "/shop/orders/o-1";
        String cookie = "wr_vid=" + shopper.visitorCookie() + "; wr_at_" + shopper.event() + "=";

        assertThat(get(order, "Cookie", cookie + shopper.issued().token()).statusCode())
                .isEqualTo(200);
        assertThat(verified(lastAtShop(order)).scope()).isEqualTo("shopping");

        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Issued expired = upstreams.coordinator.issue(
                shopper.event(),
                shopper.visitor(),
                1,
                now.minus(Duration.ofMinutes(15)),
                now.minus(Duration.ofMinutes(5)));
        assertThat(get(order, "Cookie", cookie + expired.token()).statusCode()).isEqualTo(200);
        VerifiedAdmission reading = verified(lastAtShop(order));
        assertThat(reading.scope()).isEqualTo("order-status");
        assertThat(reading.sessionId()).isEqualTo(expired.sessionId());

        upstreams.registry.end(shopper.event(), shopper.issued().sessionId());
        assertThat(get(order, "Cookie", cookie + shopper.issued().token()).statusCode())
                .isEqualTo(200);
        assertThat(verified(lastAtShop(order)).scope()).isEqualTo("order-status");
    }

    @Test
    void aShopBearerTokenWithoutAnAdmissionCookieIsNoAdmission() throws Exception {
        Shopper shopper = admitted();
        String path = "/events/" + shopper.event() + "/shop/seats";

        HttpResponse<String> reply =
                get(path, "Cookie", "wr_vid=" + shopper.visitorCookie(), "Authorization", "Bearer shop-own-token");

        assertThat(reply.statusCode()).isEqualTo(401);
        assertThat(reply.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(upstreams.booking.received(r -> r.path().equals(path))).isEmpty();
    }

    @Test
    void waitroomsOwnServicesStillGetTheCredentialAndTheShopsWebhookDoesNot() throws Exception {
        Shopper shopper = admitted();
        String join = "/events/" + shopper.event() + "/queue";
        RecordedRequest atQueue = upstreams.queue.lastReceived(join).orElseThrow();
        assertThat(atQueue.header("X-Waitroom-Internal")).contains(StubUpstreams.GATEWAY.credential());
        assertThat(atQueue.header("X-Waitroom-Visitor")).contains(shopper.visitor());

        new Browser(port)
                .post("/webhooks/payments", "{}", "X-Payment-Signature", "sha256=00", "X-Waitroom-Internal", "forged");
        RecordedRequest webhook =
                upstreams.booking.lastReceived("/webhooks/payments").orElseThrow();
        assertThat(webhook.headers().keySet()).noneMatch(name -> name.startsWith("x-waitroom-"));
    }
}
