package dev.waitroom.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubHttpServer.Recorded;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A stolen visitor cookie is worth little (docs/ARCHITECTURE.md#identity): the visitor id rotates at claim, so the
 * id a visitor waited under cannot shop; renew and leave need the session's token. Plain http, as under the launcher.
 */
@GatewayIntegrationTest
class VisitorRotationTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec codec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    record Visitor(Browser browser, String event, String waitingCookie) {

        String waitingId(VisitorCookieCodec codec) {
            return codec.decode(waitingCookie).value();
        }
    }

    Visitor offered() {
        Browser browser = new Browser(port);
        String event = "rot-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        assertThat(browser.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        upstreams.queue.event(event).offerNext(1);
        return new Visitor(browser, event, browser.cookie("wr_vid").orElseThrow());
    }

    @Test
    void aClaimGivesTheBrowserANewVisitorIdAndTheSessionIsBoundToIt() {
        Visitor v = offered();
        Browser.Reply claimed = v.browser().post("/events/" + v.event() + "/admission/claim", "{}");
        assertThat(claimed.status()).as(claimed.toString()).isEqualTo(200);

        Recorded sent = upstreams
                .coordinator
                .lastReceived("/events/" + v.event() + "/admission/claim")
                .orElseThrow();
        String minted = sent.header(Headers.NEXT_VISITOR).orElseThrow();
        assertThat(sent.header(Headers.VISITOR)).contains(v.waitingId(codec));
        assertThat(minted).isNotEqualTo(v.waitingId(codec));
        String newCookie = v.browser().cookie("wr_vid").orElseThrow();
        assertThat(codec.decode(newCookie).value()).isEqualTo(minted);
        assertThat(claimed.allHeaders("Set-Cookie"))
                .filteredOn(c -> c.startsWith("wr_vid="))
                .singleElement()
                .satisfies(c -> assertThat(c).contains("Max-Age=43200").containsIgnoringCase("HttpOnly"));
        // the coordinator's answer of the bound id is for the gateway only
        assertThat(claimed.header(Headers.VISITOR)).isEmpty();

        assertThat(v.browser().get("/events/" + v.event() + "/shop/seats").status())
                .isEqualTo(200);
        assertThat(upstreams
                        .booking
                        .lastReceived("/events/" + v.event() + "/shop/seats")
                        .orElseThrow()
                        .header(Headers.VISITOR))
                .contains(minted);
    }

    @Test
    void theIdAVisitorWaitedUnderCannotShopRenewOrLeaveEvenWithTheToken() {
        Visitor v = offered();
        String token = v.browser()
                .post("/events/" + v.event() + "/admission/claim", "{}")
                .json()
                .path("token")
                .asString();

        // the thief copied the visitor cookie while the visitor waited
        Browser thief = new Browser(port);
        thief.setCookie("wr_vid", v.waitingCookie(), "/");
        Browser.Reply shop = thief.get("/events/" + v.event() + "/shop/seats");
        assertThat(shop.status()).isEqualTo(401);
        assertThat(shop.body()).contains("admission-token-required");
        Browser.Reply withToken = thief.get("/events/" + v.event() + "/shop/seats", "Authorization", "Bearer " + token);
        assertThat(withToken.status()).isEqualTo(403);
        assertThat(withToken.body()).contains("admission-visitor-mismatch");
        for (String call : new String[] {"renew", "leave"}) {
            Browser.Reply alone = thief.post("/events/" + v.event() + "/shopping-session/" + call, "{}");
            assertThat(alone.status()).as(call).isEqualTo(401);
            assertThat(alone.body()).doesNotContain("\"token\"");
            assertThat(alone.allHeaders("Set-Cookie")).as(call).noneMatch(c -> c.startsWith("wr_at="));
        }
        // a second claim with the old id is refused: the session is the new id's
        Browser.Reply again = thief.post("/events/" + v.event() + "/admission/claim", "{}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.allHeaders("Set-Cookie")).noneMatch(c -> c.startsWith("wr_at="));

        // the visitor, with the new id and the token cookie, still shops and renews
        assertThat(v.browser().get("/events/" + v.event() + "/shop/seats").status())
                .isEqualTo(200);
        assertThat(v.browser()
                        .post("/events/" + v.event() + "/shopping-session/renew", "{}")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void aStolenCurrentVisitorCookieAloneNeitherRenewsNorLeaves() {
        Visitor v = offered();
        v.browser().post("/events/" + v.event() + "/admission/claim", "{}");
        Browser thief = new Browser(port);
        thief.setCookie("wr_vid", v.browser().cookie("wr_vid").orElseThrow(), "/");

        for (String call : new String[] {"renew", "leave"}) {
            Browser.Reply r = thief.post("/events/" + v.event() + "/shopping-session/" + call, "{}");
            assertThat(r.status()).as(call).isEqualTo(401);
            assertThat(r.body()).contains("admission-token-required").doesNotContain("\"token\"");
        }
        assertThat(v.browser().get("/events/" + v.event() + "/shop/seats").status())
                .isEqualTo(200);
        // what the coordinator was sent: the visitor header and no edge cookie
        Recorded renew = upstreams
                .coordinator
                .lastReceived("/events/" + v.event() + "/shopping-session/renew")
                .orElseThrow();
        assertThat(renew.header("Cookie").orElse("")).doesNotContain("wr_vid").doesNotContain("wr_qt");
    }

    @Test
    void aClientCannotChooseItsNextIdAndAFailedClaimKeepsTheCookie() {
        Visitor v = offered();
        String chosen = VisitorId.random().value();
        Browser.Reply claimed = v.browser()
                .post(
                        "/events/" + v.event() + "/admission/claim",
                        "{}",
                        Headers.NEXT_VISITOR,
                        chosen,
                        Headers.VISITOR,
                        chosen);
        assertThat(claimed.status()).isEqualTo(200);
        String bound = codec.decode(v.browser().cookie("wr_vid").orElseThrow()).value();
        assertThat(bound).isNotEqualTo(chosen).isNotEqualTo(v.waitingId(codec));

        // a repeated claim by the session's own id keeps it (no second rotation)
        Browser.Reply repeat = v.browser().post("/events/" + v.event() + "/admission/claim", "{}");
        assertThat(repeat.status()).isEqualTo(200);
        assertThat(repeat.allHeaders("Set-Cookie")).noneMatch(c -> c.startsWith("wr_vid="));
        assertThat(codec.decode(v.browser().cookie("wr_vid").orElseThrow()).value())
                .isEqualTo(bound);

        // no offer: no new id
        Browser late = new Browser(port);
        String otherEvent = "rot-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(otherEvent);
        assertThat(late.post("/events/" + otherEvent + "/queue", "{}").status()).isEqualTo(201);
        String before = late.cookie("wr_vid").orElseThrow();
        Browser.Reply refused = late.post("/events/" + otherEvent + "/admission/claim", "{}");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(late.cookie("wr_vid")).contains(before);
    }
}
