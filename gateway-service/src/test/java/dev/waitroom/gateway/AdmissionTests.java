package dev.waitroom.gateway;

import static dev.waitroom.gateway.RoutingTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubCoordinator.Issued;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.VisitorCookieCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

@GatewayIntegrationTest
class AdmissionTests {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    /** Every protected booking route: method and path below /events/{e}/shop. */
    static List<Arguments> protectedRoutes() {
        return List.of(
                Arguments.of("GET", "/seats"),
                Arguments.of("POST", "/holds"),
                Arguments.of("POST", "/orders"),
                Arguments.of("GET", "/holds/h-1"),
                Arguments.of("DELETE", "/holds/h-1"),
                Arguments.of("GET", "/orders/o-1"));
    }

    /** A browser with a visitor cookie, joined to the event, and its visitor id. */
    record Shopper(Browser browser, String visitor, String event) {}

    Shopper shopper() {
        Browser browser = new Browser(port);
        String event = "ev-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        assertThat(browser.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String visitor =
                visitorCodec.decode(browser.cookie("wr_vid").orElseThrow()).value();
        return new Shopper(browser, visitor, event);
    }

    Browser.Reply call(Shopper shopper, String method, String route, String token) {
        String path = "/events/" + shopper.event() + "/shop" + route;
        String[] auth = token == null ? new String[0] : new String[] {"Authorization", "Bearer " + token};
        return method.equals("POST")
                ? shopper.browser().post(path, "{\"seatIds\":[\"A1\"]}", auth)
                : shopper.browser().send(method, path, auth);
    }

    long bookingCalls(Shopper shopper) {
        return upstreams
                .booking
                .received(r -> r.path().startsWith("/events/" + shopper.event() + "/shop"))
                .size();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protectedRoutes")
    void everyProtectedRouteRejectsMissingForgedTamperedAndOtherEventTokens(String method, String route) {
        Shopper shopper = shopper();
        assertProblem(call(shopper, method, route, null), 401, "admission-token-required");

        KeyRing attacker = KeyRing.generate(Clock.systemUTC());
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String forged = AdmissionTokenIssuer.of(attacker)
                .issue(new AdmissionClaims(
                        shopper.event(),
                        1,
                        "g",
                        "s-" + UUID.randomUUID(),
                        shopper.visitor(),
                        now,
                        now.plusSeconds(600),
                        "j"));
        assertProblem(call(shopper, method, route, forged), 401, "admission-token-invalid");

        Issued valid = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        String[] parts = valid.token().split("\\.");
        String payload = parts[1];
        String tamperedPayload =
                payload.substring(0, 5) + (payload.charAt(5) == 'x' ? 'y' : 'x') + payload.substring(6);
        assertProblem(
                call(shopper, method, route, parts[0] + "." + tamperedPayload + "." + parts[2]),
                401,
                "admission-token-invalid");
        assertProblem(call(shopper, method, route, "not-a-jwt"), 401, "admission-token-invalid");

        Issued otherEvent = upstreams.coordinator.admit("other-" + shopper.event(), shopper.visitor(), 1);
        assertProblem(call(shopper, method, route, otherEvent.token()), 403, "admission-wrong-event");

        Issued otherVisitor = upstreams.coordinator.admit(shopper.event(), "AAAAAAAAAAAAAAAAAAAAAA", 1);
        assertProblem(call(shopper, method, route, otherVisitor.token()), 403, "admission-visitor-mismatch");

        assertThat(bookingCalls(shopper)).as("nothing rejected reaches booking").isZero();

        Browser.Reply ok = call(shopper, method, route, valid.token());
        assertThat(ok.status()).as(ok.toString()).isLessThan(300);
        RecordedRequest received = upstreams
                .booking
                .received(r -> r.path().startsWith("/events/" + shopper.event() + "/shop"))
                .get(0);
        // the Bearer admission token is Waitroom's: the shop gets the signed header instead, and no internal header
        assertThat(received.header("Authorization")).isEmpty();
        assertThat(received.header("Waitroom-Admission")).isPresent();
        assertThat(received.headers().keySet()).noneMatch(name -> name.startsWith("x-waitroom-"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protectedRoutes")
    void expiredTokensAndEndedSessionsAreRejected(String method, String route) {
        Shopper shopper = shopper();
        boolean orderStatus = method.equals("GET") && route.startsWith("/orders/");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Issued longExpired = upstreams.coordinator.issue(
                shopper.event(), shopper.visitor(), 1, now.minus(Duration.ofHours(3)), now.minus(Duration.ofHours(2)));
        assertProblem(call(shopper, method, route, longExpired.token()), 401, "admission-token-expired");

        Issued recentlyExpired = upstreams.coordinator.issue(
                shopper.event(),
                shopper.visitor(),
                1,
                now.minus(Duration.ofMinutes(15)),
                now.minus(Duration.ofMinutes(5)));
        Browser.Reply expiredReply = call(shopper, method, route, recentlyExpired.token());
        if (orderStatus) {
            assertThat(expiredReply.status())
                    .as("a started payment stays resolvable")
                    .isEqualTo(200);
        } else {
            assertProblem(expiredReply, 401, "admission-token-expired");
        }

        Issued ended = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        assertThat(call(shopper, method, route, ended.token()).status()).isLessThan(300);
        upstreams.registry.end(shopper.event(), ended.sessionId());
        Browser.Reply afterEnd = call(shopper, method, route, ended.token());
        if (orderStatus) {
            assertThat(afterEnd.status())
                    .as("order status is readable after the session ended")
                    .isEqualTo(200);
        } else {
            assertProblem(afterEnd, 401, "admission-session-ended");
        }

        Issued neverLive =
                upstreams.coordinator.issue(shopper.event(), shopper.visitor(), 1, now, now.plusSeconds(600));
        if (!orderStatus) {
            assertProblem(call(shopper, method, route, neverLive.token()), 401, "admission-session-ended");
        }
    }

    @Test
    void tokenFromAnEarlierSaleGenerationIsRejected() {
        Shopper shopper = shopper();
        Issued old = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        assertThat(call(shopper, "GET", "/seats", old.token()).status()).isEqualTo(200);
        upstreams.queue.event(shopper.event()).saleGeneration(2);
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() ->
                        assertProblem(call(shopper, "GET", "/seats", old.token()), 403, "admission-old-generation"));
        Issued current = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 2);
        assertThat(call(shopper, "GET", "/seats", current.token()).status()).isEqualTo(200);
    }

    @Test
    void registryAtAnotherGenerationMeansTheSessionIsNotLive() {
        Shopper shopper = shopper();
        Issued issued = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        upstreams.registry.live(shopper.event(), issued.sessionId(), 7, issued.expiresAt());
        assertProblem(call(shopper, "GET", "/seats", issued.token()), 401, "admission-session-ended");
    }

    @Test
    void admissionCookieWorksLikeTheBearerHeaderAndNeitherReachesTheShop() {
        Shopper shopper = shopper();
        Issued issued = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        shopper.browser().setCookie("wr_at_" + shopper.event(), issued.token(), "/");
        Browser.Reply reply = shopper.browser().get("/events/" + shopper.event() + "/shop/seats");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        RecordedRequest received = upstreams
                .booking
                .lastReceived("/events/" + shopper.event() + "/shop/seats")
                .orElseThrow();
        assertThat(received.header("Authorization")).isEmpty();
        assertThat(received.header("Cookie").orElse("")).doesNotContain("wr_at", "wr_vid");
        assertThat(received.header("Waitroom-Admission")).isPresent();
    }

    @Test
    void claimThenShopThenLeaveStopsTheTokenImmediately() {
        Shopper shopper = shopper();
        upstreams.queue.event(shopper.event()).offerNext(1);
        Browser.Reply claimed = shopper.browser().post("/events/" + shopper.event() + "/admission/claim", "{}");
        assertThat(claimed.status()).as(claimed.toString()).isEqualTo(200);
        assertThat(claimed.allHeaders("Set-Cookie")).anyMatch(c -> c.startsWith("wr_at_" + shopper.event() + "="));
        assertThat(shopper.browser()
                        .get("/events/" + shopper.event() + "/shop/seats")
                        .status())
                .isEqualTo(200);

        assertThat(shopper.browser()
                        .post("/events/" + shopper.event() + "/shopping-session/leave", "{}")
                        .status())
                .isEqualTo(204);
        assertProblem(
                shopper.browser().get("/events/" + shopper.event() + "/shop/seats"), 401, "admission-session-ended");
    }

    @Test
    void bypassModeSignedByTheCoordinatorLetsProtectedRoutesThroughAndCountsThem() {
        Shopper shopper = shopper();
        upstreams
                .queue
                .event(shopper.event())
                .mode("BYPASS", upstreams.coordinator.signMode(shopper.event(), "BYPASS", 1, Instant.now()));
        double before = meters.counter("waitroom.gateway.admission.checks", "outcome", "bypass")
                .count();
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> assertThat(call(shopper, "GET", "/seats", null).status())
                                .isEqualTo(200));
        assertThat(meters.counter("waitroom.gateway.admission.checks", "outcome", "bypass")
                        .count())
                .isGreaterThan(before);
        RecordedRequest bypassed = upstreams
                .booking
                .lastReceived("/events/" + shopper.event() + "/shop/seats")
                .orElseThrow();
        // the shop learns of BYPASS from the signed header's scope alone (AdmissionHeaderTests), nothing else
        assertThat(bypassed.header("Waitroom-Admission")).isPresent();
        assertThat(bypassed.headers().keySet()).noneMatch(name -> name.startsWith("x-waitroom-"));
        upstreams.queue.event(shopper.event()).mode("QUEUEING");
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> assertProblem(call(shopper, "GET", "/seats", null), 401, "admission-token-required"));
    }

    @Test
    void clientSuppliedBypassHeaderIsStrippedAndGrantsNothing() {
        Shopper shopper = shopper();
        assertProblem(
                shopper.browser()
                        .get("/events/" + shopper.event() + "/shop/seats", "X-Waitroom-Bypass", shopper.event()),
                401,
                "admission-token-required");
        Issued issued = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        assertThat(shopper.browser()
                        .get(
                                "/events/" + shopper.event() + "/shop/seats",
                                "X-Waitroom-Bypass",
                                shopper.event(),
                                "Authorization",
                                "Bearer " + issued.token())
                        .status())
                .isEqualTo(200);
        assertThat(upstreams
                        .booking
                        .lastReceived("/events/" + shopper.event() + "/shop/seats")
                        .orElseThrow()
                        .headers())
                .doesNotContainKey("x-waitroom-bypass");
    }

    @Test
    void tokensSignedWithARotatedKeyAreAcceptedOnceItIsPublished() {
        Shopper shopper = shopper();
        Issued before = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        assertThat(call(shopper, "GET", "/seats", before.token()).status()).isEqualTo(200);
        upstreams.coordinator.rotateKeys();
        Issued after = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(
                                call(shopper, "GET", "/seats", after.token()).status())
                        .isEqualTo(200));
        assertThat(call(shopper, "GET", "/seats", before.token()).status()).isEqualTo(200);
    }

    @Test
    void withTheJwksUnreachableVerifiedTokensContinueAndUnknownKeysAreUnavailableNotInvalid() {
        Shopper shopper = shopper();
        Issued known = upstreams.coordinator.admit(shopper.event(), shopper.visitor(), 1);
        assertThat(call(shopper, "GET", "/seats", known.token()).status()).isEqualTo(200);
        KeyRing unpublished = KeyRing.generate(Clock.systemUTC());
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String unknownKid = AdmissionTokenIssuer.of(unpublished)
                .issue(new AdmissionClaims(
                        shopper.event(),
                        1,
                        "g",
                        "s-" + UUID.randomUUID(),
                        shopper.visitor(),
                        now,
                        now.plusSeconds(600),
                        "j"));
        upstreams.coordinator.jwksUnavailable(true);
        try {
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() ->
                            assertProblem(call(shopper, "GET", "/seats", unknownKid), 503, "admission-unavailable"));
            assertThat(call(shopper, "GET", "/seats", known.token()).status()).isEqualTo(200);
        } finally {
            upstreams.coordinator.jwksUnavailable(false);
        }
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() ->
                        assertProblem(call(shopper, "GET", "/seats", unknownKid), 401, "admission-token-invalid"));
    }

    @Test
    void hungCoordinatorMeansNoNewAdmissionAndAPlainProblem() {
        Shopper shopper = shopper();
        upstreams.queue.event(shopper.event()).offerNext(1);
        upstreams.coordinator.claimDelay(Duration.ofSeconds(8));
        try {
            long started = System.nanoTime();
            assertProblem(
                    shopper.browser().post("/events/" + shopper.event() + "/admission/claim", "{}"),
                    503,
                    "admission-unavailable");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(7));
        } finally {
            upstreams.coordinator.claimDelay(Duration.ZERO);
        }
        assertProblem(
                shopper.browser().get("/events/" + shopper.event() + "/shop/seats"), 401, "admission-token-required");
    }

    @Test
    void clientsThatGiveUpLeaveNoUpstreamConnectionOrObservationActive() throws Exception {
        Shopper shopper = shopper();
        upstreams.queue.event(shopper.event()).offerNext(1);
        upstreams.coordinator.claimDelay(Duration.ofSeconds(3));
        try {
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            java.net.http.HttpRequest claim = java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                            "http://127.0.0.1:" + port + "/events/" + shopper.event() + "/admission/claim"))
                    .timeout(Duration.ofMillis(300))
                    .header(
                            "Cookie",
                            "wr_vid=" + shopper.browser().cookie("wr_vid").orElseThrow())
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                    .build();
            for (int i = 0; i < 5; i++) {
                // the client gives up (and closes its connection) while the coordinator still thinks
                assertThatThrownBy(() -> client.send(claim, java.net.http.HttpResponse.BodyHandlers.ofString()))
                        .isInstanceOf(java.net.http.HttpTimeoutException.class);
            }
        } finally {
            upstreams.coordinator.claimDelay(Duration.ZERO);
        }
        // what once leaked: SCG's request observation never stopped when the client went away first
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(meters.find("reactor.netty.connection.provider.active.connections")
                            .gauges())
                    .as("upstream pool metrics are on")
                    .isNotEmpty()
                    .allSatisfy(gauge -> assertThat(gauge.value())
                            .as(gauge.getId().toString())
                            .isZero());
            assertThat(meters.getMeters())
                    .filteredOn(meter -> meter instanceof io.micrometer.core.instrument.LongTaskTimer)
                    .allSatisfy(meter -> assertThat(((io.micrometer.core.instrument.LongTaskTimer) meter).activeTasks())
                            .as(meter.getId().toString())
                            .isZero());
        });
    }

    @Test
    void sessionsContinueWhileTheQueueServiceIsUnreachable() {
        Shopper shopper = shopper();
        Shopper neverPolled = shopper();
        Issued issued = upstreams.coordinator.admit(neverPolled.event(), neverPolled.visitor(), 1);
        Issued ended = upstreams.coordinator.admit(neverPolled.event(), neverPolled.visitor(), 1);
        upstreams.registry.end(neverPolled.event(), ended.sessionId());
        upstreams.queue.unavailable(true);
        try {
            assertThat(call(neverPolled, "GET", "/seats", issued.token()).status())
                    .isEqualTo(200);
            assertProblem(call(neverPolled, "GET", "/seats", ended.token()), 401, "admission-session-ended");
            assertProblem(call(neverPolled, "GET", "/seats", null), 401, "admission-token-required");
            assertThat(shopper.browser()
                            .get("/events/" + shopper.event() + "/queue/status")
                            .status())
                    .isEqualTo(503);
        } finally {
            upstreams.queue.unavailable(false);
        }
    }

    @Test
    void whileRedisIsDownExistingSessionsContinueAndNoNewAdmissionIsIssued() {
        Shopper seen = shopper();
        Issued seenToken = upstreams.coordinator.admit(seen.event(), seen.visitor(), 1);
        assertThat(call(seen, "GET", "/seats", seenToken.token()).status()).isEqualTo(200);
        Shopper fresh = shopper();
        Issued freshToken = upstreams.coordinator.admit(fresh.event(), fresh.visitor(), 1);
        upstreams.queue.event(fresh.event()).offerNext(1);
        RealStores.stopRedis();
        try {
            assertThat(call(seen, "GET", "/seats", seenToken.token()).status())
                    .as("a session seen live continues while Redis is down")
                    .isEqualTo(200);
            assertProblem(call(fresh, "GET", "/seats", freshToken.token()), 503, "admission-unavailable");
            assertProblem(
                    fresh.browser().post("/events/" + fresh.event() + "/admission/claim", "{}"),
                    503,
                    "admission-unavailable");
            assertThat(meters.get("waitroom.gateway.redis.reachable").gauge().value())
                    .as("Redis is known unreachable: claims are refused at once, not after a timeout each")
                    .isEqualTo(0);
        } finally {
            RealStores.startRedis();
        }
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(
                                call(fresh, "GET", "/seats", freshToken.token()).status())
                        .isEqualTo(200));
    }
}
