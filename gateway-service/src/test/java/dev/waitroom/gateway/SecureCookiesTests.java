package dev.waitroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/** The production setting: every cookie the browser gets through the gateway is Secure. */
@GatewayIntegrationTest
@TestPropertySource(properties = "waitroom.test.secure-cookies=true")
class SecureCookiesTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    @Test
    void visitorTicketAndAdmissionCookiesAreSecure() {
        Browser browser = new Browser(port);
        String event = "sec-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        assertThat(joined.allHeaders("Set-Cookie"))
                .hasSize(2)
                .allSatisfy(cookie -> assertThat(cookie).containsIgnoringCase("; Secure"));
        String visitorCookie = joined.allHeaders("Set-Cookie").stream()
                .filter(c -> c.startsWith("wr_vid="))
                .findFirst()
                .orElseThrow();
        upstreams.queue.event(event).offerNext(1);
        Browser.Reply claimed = browser.post(
                "/events/" + event + "/admission/claim",
                "{}",
                "Cookie",
                visitorCookie.substring(0, visitorCookie.indexOf(';')));
        assertThat(claimed.status()).as(claimed.toString()).isEqualTo(200);
        assertThat(claimed.allHeaders("Set-Cookie"))
                .filteredOn(c -> c.startsWith("wr_at="))
                .singleElement()
                .satisfies(cookie ->
                        assertThat(cookie).containsIgnoringCase("HttpOnly").contains("; Secure"));
    }
}
