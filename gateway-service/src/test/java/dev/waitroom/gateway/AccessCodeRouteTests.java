package dev.waitroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubCoordinator;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The visitor's redemption of an access code through the gateway (docs/operating/lanes-and-access-codes.md): forwarded
 * to the coordinator with the verified visitor id and the code in the body only; an accepted code drops the queue
 * ticket (the lane's position is the queue-service's to answer); a refused one is the coordinator's problem, unchanged.
 */
@GatewayIntegrationTest
class AccessCodeRouteTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    private String joined(Browser browser) {
        String event = "ev-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        assertThat(browser.cookie("wr_qt")).as("a queue ticket").isPresent();
        return event;
    }

    @Test
    void anAcceptedCodeReachesTheCoordinatorInTheBodyAndDropsTheQueueTicket() {
        Browser browser = new Browser(port);
        String event = joined(browser);
        VisitorId visitor = visitorCodec.decode(browser.cookie("wr_vid").orElseThrow());

        Browser.Reply redeemed =
                browser.post("/events/" + event + "/code", "{\"code\":\"" + StubCoordinator.GOOD_CODE + "\"}");
        assertThat(redeemed.status()).as(redeemed.toString()).isEqualTo(200);
        assertThat(redeemed.json().get("lane").asString()).isEqualTo("presale");
        assertThat(redeemed.allHeaders("Set-Cookie"))
                .anySatisfy(c -> assertThat(c).startsWith("wr_qt=").containsIgnoringCase("Max-Age=0"));

        var received = upstreams.coordinator.received(r -> r.path().equals("/events/" + event + "/code"));
        assertThat(received).hasSize(1);
        assertThat(received.get(0).body()).contains(StubCoordinator.GOOD_CODE);
        assertThat(received.get(0).header(Headers.VISITOR))
                .as("the verified visitor")
                .contains(visitor.value());
        assertThat(received.get(0).path()).doesNotContain(StubCoordinator.GOOD_CODE);
    }

    @Test
    void aRefusedCodeIsTheCoordinatorsProblemAndKeepsTheTicket() {
        Browser browser = new Browser(port);
        String event = joined(browser);
        Browser.Reply refused =
                browser.post("/events/" + event + "/code", "{\"code\":\"NOTGOO-DNOTGO-ODNOTG-OODNOT\"}");
        refused.assertProblem(403, "code-invalid");
        assertThat(refused.allHeaders("Set-Cookie")).noneMatch(c -> c.startsWith("wr_qt="));
        assertThat(browser.cookie("wr_qt")).isPresent();
    }

    @Test
    void onlyAPostWithABodyReachesTheCoordinator() {
        Browser browser = new Browser(port);
        String event = joined(browser);
        long before =
                upstreams.coordinator.received(r -> r.path().endsWith("/code")).size();
        Browser.Reply get = browser.get("/events/" + event + "/code");
        assertThat(get.status()).isIn(404, 405);
        assertThat(upstreams.coordinator.received(r -> r.path().endsWith("/code")))
                .hasSize((int) before);
    }
}
