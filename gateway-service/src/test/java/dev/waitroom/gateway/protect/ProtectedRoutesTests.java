package dev.waitroom.gateway.protect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.routes.ProtectedPath;
import dev.waitroom.contract.routes.Protection;
import dev.waitroom.gateway.routes.WaitingRoomRedirects;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.CoordinatorPushes;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.ShopOrigin;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RealStores;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue 27, items 1 and 2, through real HTTP: two events protect paths of two different origins (real servers on
 * loopback that know nothing of Waitroom); a request matching an event's paths needs that event's admission and
 * reaches that event's origin with path and query unchanged; a browser without one is sent to the waiting page with
 * the page it asked for, and only that event's own paths are accepted as the page to return to; a path no event
 * protects is a 404 problem (no default origin here, DefaultOriginTests has one); a new route table is in force
 * within the refresh interval.
 */
@GatewayIntegrationTest
class ProtectedRoutesTests {

    static final ShopOrigin CONCERTS = new ShopOrigin("concerts");

    static final ShopOrigin THEATRE = new ShopOrigin("theatre");

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final CoordinatorPushes table = new CoordinatorPushes();

    @AfterEach
    void clearTable() {
        table.clearRoutes();
    }

    @AfterAll
    static void stopOrigins() {
        CONCERTS.close();
        THEATRE.close();
    }

    static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static Protection protection(ShopOrigin origin, String host, String... paths) {
        return new Protection(
                Protection.origin(origin.uri().toString()),
                host,
                List.of(paths).stream().map(ProtectedPath::of).toList(),
                List.of());
    }

    /** Writes the table and waits until the gateway routes by it (a protected path is refused without admission). */
    void protect(String eventId, Protection protection, String probe) {
        table.protect(eventId, protection);
        Browser anonymous = new Browser(port);
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(anonymous.get(probe).status()).isEqualTo(401));
    }

    /** A browser holding an offer of the event, claimed through the gateway (the admission cookie set as browsers get it). */
    Browser admitted(Browser browser, String eventId) {
        upstreams.queue.event(eventId);
        assertThat(browser.post("/events/" + eventId + "/queue", "{}").status()).isIn(200, 201);
        upstreams.queue.event(eventId).offerNext(1);
        Browser.Reply claimed = browser.post("/events/" + eventId + "/admission/claim", "{}");
        assertThat(claimed.status()).as(claimed.toString()).isEqualTo(200);
        assertThat(claimed.allHeaders("Set-Cookie"))
                .as("the event's own admission cookie, for the whole site")
                .anyMatch(
                        c -> c.startsWith("wr_at_" + eventId + "=") && c.contains("Path=/;") && c.contains("HttpOnly"))
                .noneMatch(c -> c.startsWith("wr_at="));
        return browser;
    }

    @Test
    void twoEventsReachTheirOwnOriginsWithPathQueryAndHostAsConfigured() {
        String concert = id("gig");
        String play = id("play");
        String seats = "/concerts/" + concert + "/seats";
        String stage = "/stage/" + play;
        table.protect(play, protection(THEATRE, null, stage + "/**"));
        protect(concert, protection(CONCERTS, "tickets.concerts.example", "/concerts/" + concert + "/**"), seats);

        Browser buyer = new Browser(port);
        admitted(buyer, concert);
        admitted(buyer, play);

        Browser.Reply page = buyer.get(seats + "?row=B&n=2", "Accept", "text/html");
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        assertThat(page.body()).isEqualTo(CONCERTS.page(seats, "row=B&n=2"));
        ShopOrigin.Received atConcerts = CONCERTS.last(seats).orElseThrow();
        assertThat(atConcerts.query()).isEqualTo("row=B&n=2");
        assertThat(atConcerts.header("Host")).contains("tickets.concerts.example");

        Browser.Reply other = buyer.get(stage + "/act-1");
        assertThat(other.status())
                .as("a buyer admitted to two events shops both")
                .isEqualTo(200);
        assertThat(other.body()).isEqualTo(THEATRE.page(stage + "/act-1", null));
        assertThat(THEATRE.last(stage + "/act-1").orElseThrow().header("Host"))
                .contains(THEATRE.uri().getAuthority());
        assertThat(THEATRE.last(stage).isPresent()).isFalse();
        assertThat(CONCERTS.last(stage + "/act-1")).isEmpty();
    }

    @Test
    void aPathNoEventProtectsIsNotFoundAndReachesNoOrigin() {
        String concert = id("gig");
        protect(concert, protection(CONCERTS, null, "/concerts/" + concert + "/**"), "/concerts/" + concert);
        Browser browser = new Browser(port);
        browser.get("/concerts/" + concert + "-later/x").assertProblem(404, "not-found");
        browser.get("/somewhere/else").assertProblem(404, "not-found");
        assertThat(CONCERTS.last("/concerts/" + concert + "-later/x")).isEmpty();
    }

    @Test
    void aBrowserWithoutAdmissionIsSentToTheWaitingPageAndAnApiClientGetsTheProblemWithALink() {
        String concert = id("gig");
        String seats = "/concerts/" + concert + "/seats";
        protect(concert, protection(CONCERTS, null, "/concerts/" + concert + "/**"), seats);
        Browser browser = new Browser(port);

        Browser.Reply navigation = browser.get(seats + "?row=B", "Accept", "text/html,application/xhtml+xml;q=0.9");
        assertThat(navigation.status()).isEqualTo(303);
        assertThat(navigation.header("Location"))
                .contains("/events/" + concert + "?return="
                        + URLEncoder.encode(seats + "?row=B", StandardCharsets.UTF_8));
        assertThat(navigation.header("Cache-Control")).contains("no-store");

        Browser.Reply api = browser.get(seats, "Accept", "application/json");
        api.assertProblem(401, "admission-token-required");
        assertThat(api.header("Link")).contains("</events/" + concert + ">; rel=\"waiting-room\"");

        // a POST is never redirected, even from a browser
        assertThat(browser.post(seats, "{}", "Accept", "text/html").status()).isEqualTo(401);
        assertThat(CONCERTS.last(seats)).isEmpty();

        // the waiting page's return target is the page asked for, once the gateway accepts it
        String location = navigation.header("Location").orElseThrow();
        String target = URLDecoder.decode(location.substring(location.indexOf("return=") + 7), StandardCharsets.UTF_8);
        Browser.Reply accepted = browser.get(
                "/events/" + concert + "/return-target?path=" + URLEncoder.encode(target, StandardCharsets.UTF_8));
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
        assertThat(accepted.json().get("target").asString()).isEqualTo(seats + "?row=B");

        // admitted, the same deep link is served by the origin
        admitted(browser, concert);
        Browser.Reply back = browser.get(target, "Accept", "text/html");
        assertThat(back.status()).isEqualTo(200);
        assertThat(back.body()).isEqualTo(CONCERTS.page(seats, "row=B"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "//evil.example/concerts",
                "/\\evil.example",
                "\\\\evil.example",
                "%2F%2Fevil.example",
                "/%2F/evil.example",
                "https://evil.example/concerts",
                "javascript:alert(1)",
                "/concerts/OTHER/seats",
                "/concerts/SELF/seats\r\nSet-Cookie: x=1",
                "/concerts/SELF/seats%0d%0aSet-Cookie:x=1",
                "/concerts/SELF/../../admin",
                "/concerts/SELF/%2e%2e/x",
                "/concerts/SELF/seats#frag",
                "/unprotected/page",
                ""
            })
    void onlyTheEventsOwnPathsAreAcceptedAsTheReturnTarget(String candidate) {
        String concert = id("gig");
        String other = id("gig");
        table.protect(other, protection(THEATRE, null, "/concerts/" + other + "/**"));
        protect(concert, protection(CONCERTS, null, "/concerts/" + concert + "/**"), "/concerts/" + concert);
        String target = candidate.replace("SELF", concert).replace("OTHER", other);
        Browser.Reply refused = new Browser(port)
                .get("/events/" + concert + "/return-target?path=" + URLEncoder.encode(target, StandardCharsets.UTF_8));
        refused.assertProblem(400, "bad-path");
        assertThat(refused.body()).doesNotContain("evil");
    }

    @Test
    void aChangedRouteTableMovesThePathToTheNewOriginWithinTheRefresh() {
        String concert = id("gig");
        String seats = "/concerts/" + concert + "/seats";
        protect(concert, protection(CONCERTS, null, "/concerts/" + concert + "/**"), seats);
        Browser buyer = admitted(new Browser(port), concert);
        assertThat(buyer.get(seats).body()).isEqualTo(CONCERTS.page(seats, null));

        table.protect(concert, protection(THEATRE, null, "/concerts/" + concert + "/**"));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(buyer.get(seats).body()).isEqualTo(THEATRE.page(seats, null)));

        table.protect(concert, null);
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> new Browser(port).get(seats).assertProblem(404, "not-found"));
    }

    @Test
    void whileRedisIsDownTheLastTableStaysInForce() {
        String concert = id("gig");
        String seats = "/concerts/" + concert + "/seats";
        protect(concert, protection(CONCERTS, null, "/concerts/" + concert + "/**"), seats);
        Browser buyer = admitted(new Browser(port), concert);
        assertThat(buyer.get(seats).status()).isEqualTo(200);
        RealStores.stopRedis();
        try {
            // many refreshes fail meanwhile: the path stays protected, never falls through to a 404 or an origin
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
                assertThat(new Browser(port).get(seats).status()).isEqualTo(401);
                assertThat(buyer.get(seats).status())
                        .as("a session seen live continues")
                        .isEqualTo(200);
            });
        } finally {
            RealStores.startRedis();
        }
    }

    @Test
    void forwardAuthAnswersForAnyEventsProtectedPathWithTheWaitingPageForItsProxy() {
        String concert = id("gig");
        String seats = "/concerts/" + concert + "/seats";
        protect(concert, protection(CONCERTS, null, "/concerts/" + concert + "/**"), seats);
        Browser browser = new Browser(port);

        Browser.Reply refused = browser.get(
                "/forward-auth", "X-Original-URI", seats + "?row=C", "X-Original-Method", "GET", "Accept", "text/html");
        refused.assertProblem(401, "admission-token-required");
        assertThat(refused.allHeaders("Link")).containsExactly("</events/" + concert + ">; rel=\"waiting-room\"");
        assertThat(refused.header(WaitingRoomRedirects.WAITING_ROOM_HEADER))
                .contains("/events/" + concert + "?return="
                        + URLEncoder.encode(seats + "?row=C", StandardCharsets.UTF_8));

        admitted(browser, concert);
        Browser.Reply api =
                new Browser(port).get("/forward-auth", "X-Original-URI", seats, "Accept", "application/json");
        api.assertProblem(401, "admission-token-required");
        assertThat(api.header(WaitingRoomRedirects.WAITING_ROOM_HEADER))
                .as("only a navigation is sent to the waiting page")
                .isEmpty();

        Browser.Reply allowed = browser.get("/forward-auth", "X-Original-URI", seats, "X-Original-Method", "GET");
        assertThat(allowed.status()).as(allowed.toString()).isEqualTo(200);
        assertThat(allowed.header("Waitroom-Admission")).isPresent();
        assertThat(CONCERTS.last(seats)).as("forward-auth forwards nothing").isEmpty();

        browser.get("/forward-auth", "X-Original-URI", "/not/protected", "X-Original-Method", "GET")
                .assertProblem(400, "bad-path");
    }
}
