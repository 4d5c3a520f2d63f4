package dev.waitroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RecordedRequest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * The production setting (served over HTTPS): every cookie the browser gets through the gateway is Secure, HttpOnly,
 * SameSite=Lax and carries the name prefix the browser enforces; cookies under the bare names are not honoured. The
 * test client speaks plain http, so it sends the cookies itself (a browser keeps Secure cookies for https only).
 */
@GatewayIntegrationTest
@TestPropertySource(properties = "waitroom.test.secure-cookies=true")
class SecureCookiesTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    @Test
    void visitorTicketAndAdmissionCookiesArePrefixedSecureHttpOnlyAndLax() {
        Browser browser = new Browser(port);
        String event = event();
        upstreams.queue.event(event);

        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        assertThat(joined.allHeaders("Set-Cookie")).hasSize(2).allSatisfy(SecureCookiesTests::assertHardened);
        String visitor = setCookie(joined, "__Host-wr_vid");
        assertThat(visitor).contains("; Path=/;").contains("Max-Age=43200").doesNotContainIgnoringCase("Domain");
        assertThat(setCookie(joined, "__Secure-wr_qt"))
                .contains("; Path=/events/" + event)
                .doesNotContain("Max-Age");
        assertThat(joined.allHeaders("Set-Cookie")).noneMatch(c -> c.startsWith("wr_"));

        upstreams.queue.event(event).offerNext(1);
        Browser.Reply claimed = browser.post("/events/" + event + "/admission/claim", "{}", "Cookie", pair(visitor));
        assertThat(claimed.status()).as(claimed.toString()).isEqualTo(200);
        // the event's own admission cookie; the visitor id is stable, so no new visitor cookie
        assertThat(claimed.allHeaders("Set-Cookie")).hasSize(1).allSatisfy(SecureCookiesTests::assertHardened);
        String token = setCookie(claimed, "__Host-wr_at_" + event);
        // the event's own name for the whole site: its protected paths need not be under /events/{e}
        assertThat(token).contains("; Path=/;").doesNotContainIgnoringCase("Domain");

        // the shop and the session calls take the prefixed cookies; upstream sees wr_at only, never the edge cookies
        String cookies = pair(visitor) + "; " + pair(token);
        Browser.Reply shop = browser.get("/events/" + event + "/shop/seats", "Cookie", cookies);
        assertThat(shop.status()).as(shop.toString()).isEqualTo(200);
        Browser.Reply renewed = browser.post("/events/" + event + "/shopping-session/renew", "{}", "Cookie", cookies);
        assertThat(renewed.status()).as(renewed.toString()).isEqualTo(200);
        assertThat(setCookie(renewed, "__Host-wr_at_" + event)).satisfies(SecureCookiesTests::assertHardened);
        RecordedRequest forwarded = upstreams
                .coordinator
                .lastReceived("/events/" + event + "/shopping-session/renew")
                .orElseThrow();
        assertThat(forwarded.header("Cookie"))
                .contains("wr_at=" + pair(token).substring(("__Host-wr_at_" + event + "=").length()));
        assertThat(forwarded.header("Cookie").orElseThrow())
                .doesNotContain("wr_vid")
                .doesNotContain("__Host-")
                .doesNotContain("__Secure-");
    }

    @Test
    void bareCookieNamesAreNotHonouredOverHttps() {
        Browser browser = new Browser(port);
        String event = event();
        upstreams.queue.event(event);
        String visitor = setCookie(browser.post("/events/" + event + "/queue", "{}"), "__Host-wr_vid");
        String bareVisitor = "wr_vid=" + pair(visitor).substring("__Host-wr_vid=".length());

        // a visitor cookie planted under the bare name (by a sibling subdomain, or over plain http) is not an identity
        Browser.Reply planted = browser.post("/events/" + event + "/queue", "{}", "Cookie", bareVisitor);
        assertThat(planted.allHeaders("Set-Cookie")).anyMatch(c -> c.startsWith("__Host-wr_vid="));
        assertThat(pair(setCookie(planted, "__Host-wr_vid"))).isNotEqualTo(pair(visitor));

        upstreams.queue.event(event).offerNext(1);
        Browser.Reply claimed = browser.post("/events/" + event + "/admission/claim", "{}", "Cookie", pair(visitor));
        String wire = "__Host-wr_at_" + event;
        String token = pair(setCookie(claimed, wire)).substring((wire + "=").length());
        for (String bare : List.of("wr_at=", "wr_at_" + event + "=", "__Secure-wr_at=")) {
            Browser.Reply bareToken =
                    browser.get("/events/" + event + "/shop/seats", "Cookie", pair(visitor) + "; " + bare + token);
            assertThat(bareToken.status()).as(bare).isEqualTo(401);
            assertThat(bareToken.body()).contains("admission-token-required");
        }
        // another event's cookie is not this event's
        Browser.Reply otherEvents = browser.get(
                "/events/" + event + "/shop/seats",
                "Cookie",
                pair(visitor) + "; __Host-wr_at_other-" + event + "=" + token);
        assertThat(otherEvents.status()).isEqualTo(401);
    }

    @Test
    void statusPollsCarryingThePrefixedCookiesAreAnsweredAtTheEdge() {
        Browser browser = new Browser(port);
        String event = event();
        upstreams.queue.event(event).admissionRate(1.0).addWaiting(200);
        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        String cookies = pair(setCookie(joined, "__Host-wr_vid")) + "; " + pair(setCookie(joined, "__Secure-wr_qt"));

        // the snapshot comes at most once a second; then the far-back visitor's polls never reach the queue-service
        await().atMost(Duration.ofSeconds(5))
                .until(() -> browser.get("/events/" + event + "/queue/status", "Cookie", cookies)
                        .header("X-Waitroom-Status-Source")
                        .filter("edge"::equals)
                        .isPresent());
        // under the bare names the edge knows no visitor (over HTTPS) and sends the poll on
        String bare = cookies.replace("__Host-", "").replace("__Secure-", "");
        assertThat(browser.get("/events/" + event + "/queue/status", "Cookie", bare)
                        .header("X-Waitroom-Status-Source"))
                .contains("queue");
    }

    private static void assertHardened(String setCookie) {
        assertThat(setCookie)
                .contains("; Secure")
                .containsIgnoringCase("; HttpOnly")
                .contains("SameSite=Lax");
    }

    private static String setCookie(Browser.Reply reply, String name) {
        List<String> matching = reply.allHeaders("Set-Cookie").stream()
                .filter(c -> c.startsWith(name + "="))
                .toList();
        assertThat(matching).as(reply.allHeaders("Set-Cookie").toString()).hasSize(1);
        return matching.get(0);
    }

    private static String pair(String setCookie) {
        int semicolon = setCookie.indexOf(';');
        return semicolon < 0 ? setCookie : setCookie.substring(0, semicolon);
    }

    private static String event() {
        return "sec-" + UUID.randomUUID().toString().substring(0, 12);
    }
}
