package dev.waitroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

@GatewayIntegrationTest
class RoutingTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    /** An event the coordinator has pushed to the queue-service. */
    static String newEvent() {
        String event = "ev-" + UUID.randomUUID().toString().substring(0, 12);
        StubUpstreams.get().queue.event(event);
        return event;
    }

    static void assertProblem(Browser.Reply reply, int status, String typeSlug) {
        reply.assertProblem(status, typeSlug);
    }

    @Test
    void unknownRouteIsProblemNotFound() {
        Browser browser = new Browser(port);
        assertProblem(browser.get("/no/such/route"), 404, "not-found");
        assertProblem(browser.post("/events/" + newEvent() + "/nothing-here", "{}"), 404, "not-found");
        assertProblem(browser.get("/assets/missing.js"), 404, "not-found");
    }

    @Test
    void internalAndActuatorRoutesOfUpstreamsAreUnreachable() {
        Browser browser = new Browser(port);
        String event = newEvent();
        upstreams.queue.event(event);
        long before = upstreams.queue.countReceived("/internal/events/" + event + "/snapshot");
        assertProblem(browser.get("/internal/events/" + event + "/snapshot"), 404, "not-found");
        assertProblem(browser.send("PUT", "/internal/events/" + event), 404, "not-found");
        assertProblem(browser.post("/internal/health", "{}"), 404, "not-found");
        assertProblem(browser.get("/actuator/env"), 404, "not-found");
        assertProblem(
                browser.get("/events/" + event + "/shop/../../../internal/events/" + event + "/snapshot"),
                400,
                "bad-path");
        assertProblem(browser.get("/events/" + event + "/shop/%2e%2e/%2e%2e/internal/health"), 400, "bad-path");
        assertProblem(browser.get("/events/" + event + "/shop%2f..%2finternal"), 400, "bad-path");
        assertProblem(browser.get("/events/" + event + "/queue;jsessionid=x/status"), 400, "bad-path");
        assertThat(upstreams.queue.countReceived("/internal/events/" + event + "/snapshot"))
                .isEqualTo(before);
        assertThat(upstreams.booking.received(r -> r.path().contains("internal")))
                .isEmpty();
    }

    @Test
    void firstVisitGetsSignedHttpOnlyVisitorCookieAndUpstreamGetsVerifiedId() {
        Browser browser = new Browser(port);
        String event = newEvent();
        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        String setCookie = joined.allHeaders("Set-Cookie").stream()
                .filter(c -> c.startsWith("wr_vid="))
                .findFirst()
                .orElseThrow();
        assertThat(setCookie)
                .containsIgnoringCase("HttpOnly")
                .contains("SameSite=Lax")
                .contains("Path=/");
        VisitorId visitor = visitorCodec.decode(browser.cookie("wr_vid").orElseThrow());
        RecordedRequest received =
                upstreams.queue.lastReceived("/events/" + event + "/queue").orElseThrow();
        assertThat(received.header("X-Waitroom-Visitor")).contains(visitor.value());
        assertThat(received.header("X-Waitroom-Internal")).contains(StubUpstreams.GATEWAY.credential());

        Browser.Reply again = browser.post("/events/" + event + "/queue", "{}");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.allHeaders("Set-Cookie")).noneMatch(c -> c.startsWith("wr_vid="));
        assertThat(upstreams
                        .queue
                        .lastReceived("/events/" + event + "/queue")
                        .orElseThrow()
                        .header("X-Waitroom-Visitor"))
                .contains(visitor.value());
    }

    @Test
    void spoofedIdentityAndInternalHeadersAreIgnored() {
        Browser browser = new Browser(port);
        String event = newEvent();
        browser.post("/events/" + event + "/queue", "{}");
        VisitorId visitor = visitorCodec.decode(browser.cookie("wr_vid").orElseThrow());
        String victim = VisitorId.random().value();
        String[] spoofed = {
            "X-Waitroom-Visitor", victim, "X-Waitroom-Account", "someone-else", "X-Waitroom-Internal", "guessed"
        };
        browser.post("/events/" + event + "/admission/claim", "{}", spoofed);
        RecordedRequest claim = upstreams
                .coordinator
                .lastReceived("/events/" + event + "/admission/claim")
                .orElseThrow();
        assertThat(claim.headers().get("x-waitroom-visitor")).containsExactly(visitor.value());
        assertThat(claim.headers()).doesNotContainKey("x-waitroom-account");
        assertThat(claim.headers().get("x-waitroom-internal")).containsExactly(StubUpstreams.GATEWAY.credential());

        Browser.Reply publicStatus = browser.get("/events/" + event + "/status", spoofed);
        assertThat(publicStatus.status()).isEqualTo(200);
        assertThat(publicStatus.allHeaders("Set-Cookie"))
                .as("public status is the same for everyone")
                .isEmpty();
        RecordedRequest received =
                upstreams.queue.lastReceived("/events/" + event + "/status").orElseThrow();
        assertThat(received.headers()).doesNotContainKey("x-waitroom-visitor").doesNotContainKey("x-waitroom-account");
        assertThat(received.headers().get("x-waitroom-internal")).containsExactly(StubUpstreams.GATEWAY.credential());
    }

    @Test
    void cookiesOnlyTheGatewayReadsNeverReachTheServices() {
        Browser browser = new Browser(port);
        String event = newEvent();
        browser.post("/events/" + event + "/queue", "{}");
        browser.setCookie("wr_at_" + event, "token-value", "/");
        browser.setCookie("theme", "dark", "/");
        browser.post("/events/" + event + "/admission/claim", "{}");
        RecordedRequest claim = upstreams
                .coordinator
                .lastReceived("/events/" + event + "/admission/claim")
                .orElseThrow();
        String cookies = claim.header("Cookie").orElse("");
        assertThat(cookies)
                .doesNotContain("wr_vid")
                .doesNotContain("wr_qt")
                .contains("wr_at=token-value")
                .contains("theme=dark");
        assertThat(claim.header("X-Waitroom-Visitor")).isPresent();
    }

    @Test
    void tamperedVisitorCookieIsReplacedByANewIdentity() {
        Browser browser = new Browser(port);
        String event = newEvent();
        browser.post("/events/" + event + "/queue", "{}");
        String original = browser.cookie("wr_vid").orElseThrow();
        String tampered = original.substring(0, 3) + (original.charAt(3) == 'A' ? 'B' : 'A') + original.substring(4);
        browser.forgetCookie("wr_vid");
        browser.setCookie("wr_vid", tampered, "/");
        Browser.Reply reply = browser.post("/events/" + event + "/queue", "{}");
        assertThat(reply.status()).as("a new visitor joins anew").isEqualTo(201);
        String upstreamVisitor = upstreams
                .queue
                .lastReceived("/events/" + event + "/queue")
                .orElseThrow()
                .header("X-Waitroom-Visitor")
                .orElseThrow();
        assertThat(upstreamVisitor).isNotEqualTo(visitorCodec.decode(original).value());
        assertThat(reply.allHeaders("Set-Cookie")).anyMatch(c -> c.startsWith("wr_vid="));
    }

    @Test
    void queueTicketHeaderBecomesEventScopedCookieAndLeaveClearsIt() {
        Browser browser = new Browser(port);
        String event = newEvent();
        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        assertThat(joined.header("X-Waitroom-Ticket")).isEmpty();
        String ticketCookie = joined.allHeaders("Set-Cookie").stream()
                .filter(c -> c.startsWith("wr_qt="))
                .findFirst()
                .orElseThrow();
        assertThat(ticketCookie)
                .contains("Path=/events/" + event)
                .containsIgnoringCase("HttpOnly")
                .contains("SameSite=Lax");
        assertThat(browser.cookie("wr_qt")).isPresent();

        Browser.Reply left = browser.delete("/events/" + event + "/queue");
        assertThat(left.status()).isEqualTo(200);
        assertThat(left.json().get("state").asString()).isEqualTo("LEFT");
        assertThat(left.allHeaders("Set-Cookie")).anyMatch(c -> c.startsWith("wr_qt=") && c.contains("Max-Age=0"));
    }

    @Test
    void adminNeedsTheOpsToken() {
        Browser browser = new Browser(port);
        long before = upstreams
                .coordinator
                .received(r -> r.path().startsWith("/admin/"))
                .size();
        assertProblem(browser.post("/admin/events", "{}"), 401, "ops-credential-required");
        assertProblem(
                browser.post("/admin/events", "{}", "Authorization", "Bearer wrong"), 401, "ops-credential-required");
        assertProblem(
                browser.post("/admin/events", "{}", "Authorization", StubUpstreams.OPS_TOKEN),
                401,
                "ops-credential-required");
        assertProblem(browser.send("PUT", "/admin/events/x/inventory"), 401, "ops-credential-required");
        assertThat(upstreams.coordinator.received(r -> r.path().startsWith("/admin/")))
                .hasSize((int) before);

        Browser.Reply ok = browser.post("/admin/events", "{}", "Authorization", "Bearer " + StubUpstreams.OPS_TOKEN);
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.json().get("served").asString()).isEqualTo("coordinator");
        Browser.Reply inventory =
                browser.send("PUT", "/admin/events/x/inventory", "Authorization", "Bearer " + StubUpstreams.OPS_TOKEN);
        assertThat(inventory.json().get("served").asString()).isEqualTo("booking");
        Browser.Reply readInventory =
                browser.get("/admin/events/x/inventory", "Authorization", "Bearer " + StubUpstreams.OPS_TOKEN);
        assertThat(readInventory.json().get("served").asString()).isEqualTo("booking");
        Browser.Reply bookingAdmin =
                browser.get("/admin/booking/health", "Authorization", "Bearer " + StubUpstreams.OPS_TOKEN);
        assertThat(bookingAdmin.json().get("served").asString()).isEqualTo("booking");
    }

    /** Issue 30, item 5: the list, publish, archive and delete of events pass the gateway to the coordinator. */
    @Test
    void eventLifecycleRoutesReachTheCoordinatorWithTheOpsTokenOnly() {
        Browser browser = new Browser(port);
        String event = newEvent();
        String ops = "Bearer " + StubUpstreams.OPS_TOKEN;
        String[][] calls = {
            {"GET", "/admin/events?state=DRAFT&limit=10", "/admin/events", null},
            {"POST", "/admin/events/" + event + "/publish", "/admin/events/" + event + "/publish", "{\"reason\":\"go\"}"
            },
            {
                "POST",
                "/admin/events/" + event + "/archive",
                "/admin/events/" + event + "/archive",
                "{\"reason\":\"over\"}"
            },
            {"DELETE", "/admin/events/" + event, "/admin/events/" + event, "{\"reason\":\"typo\"}"}
        };
        for (String[] call : calls) {
            long before = upstreams
                    .coordinator
                    .received(r -> r.method().equals(call[0]) && r.path().equals(call[2]))
                    .size();
            assertProblem(browser.send(call[0], call[1]), 401, "ops-credential-required");
            Browser.Reply ok = call[3] == null
                    ? browser.send(call[0], call[1], "Authorization", ops)
                    : browser.sendJson(call[0], call[1], call[3], "Authorization", ops);
            assertThat(ok.status())
                    .as(call[0] + " " + call[1] + ": " + ok.body())
                    .isEqualTo(200);
            assertThat(ok.json().get("served").asString()).isEqualTo("coordinator");
            assertThat(upstreams
                            .coordinator
                            .received(
                                    r -> r.method().equals(call[0]) && r.path().equals(call[2]))
                            .size())
                    .as("%s %s reached the coordinator once, with the token only", call[0], call[1])
                    .isEqualTo(before + 1);
        }
    }

    @Test
    void requestIdIsGeneratedWhenMissingOrMalformedAndForwarded() {
        Browser browser = new Browser(port);
        String event = newEvent();
        Browser.Reply generated = browser.get("/events/" + event + "/status");
        String id = generated.header("X-Request-Id").orElseThrow();
        assertThat(upstreams
                        .queue
                        .lastReceived("/events/" + event + "/status")
                        .orElseThrow()
                        .header("X-Request-Id"))
                .contains(id);

        Browser.Reply kept = browser.get("/events/" + event + "/status", "X-Request-Id", "trace-12345678");
        assertThat(kept.header("X-Request-Id")).contains("trace-12345678");
        assertThat(upstreams
                        .queue
                        .lastReceived("/events/" + event + "/status")
                        .orElseThrow()
                        .header("X-Request-Id"))
                .contains("trace-12345678");

        Browser.Reply replaced = browser.get("/events/" + event + "/status", "X-Request-Id", "bad id with spaces");
        assertThat(replaced.header("X-Request-Id"))
                .hasValueSatisfying(v -> assertThat(v).isNotEqualTo("bad id with spaces"));
    }

    @Test
    void malformedEventIdsAreRefusedBeforeAnythingIsForwardedOrIssued() {
        Browser browser = new Browser(port);
        String longId = "e".repeat(200);
        for (Browser.Reply reply : List.of(
                browser.post("/events/" + longId + "/queue", "{}"),
                browser.get("/events/-bad/queue/status"),
                browser.get("/events/" + longId + "/shop/seats"),
                browser.post("/events/bad%20id/admission/claim", "{}"))) {
            assertProblem(reply, 404, "not-found");
            assertThat(reply.allHeaders("Set-Cookie")).isEmpty();
        }
        assertThat(upstreams.queue.received(
                        r -> r.path().contains(longId) || r.path().contains("/events/-bad/")))
                .isEmpty();
        assertThat(upstreams.booking.received(r -> r.path().contains(longId))).isEmpty();
        assertThat(upstreams.coordinator.received(r -> r.path().contains("bad%20id")))
                .isEmpty();
    }

    @Test
    void oversizedBodyIsRefusedWithoutReachingTheUpstream() {
        Browser browser = new Browser(port);
        String event = newEvent();
        String big = "{\"x\":\"" + "a".repeat(70 * 1024) + "\"}";
        assertProblem(browser.post("/events/" + event + "/queue", big), 413, "body-too-large");
        assertThat(upstreams.queue.countReceived("/events/" + event + "/queue")).isZero();
    }

    @Test
    void paymentWebhookPassesWithoutAdmissionWithSignatureAndRawBodyUnchanged() {
        Browser browser = new Browser(port);
        String body =
                "{\"webhookId\":\"w-1\",  \"paymentAttemptId\":\"p-1\",\"outcome\":\"SUCCEEDED\",\"amountCents\":4500}";
        Browser.Reply reply = browser.post("/webhooks/payments", body, "X-Payment-Signature", "sha256=abc123");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("served").asString()).isEqualTo("booking");
        RecordedRequest received =
                upstreams.booking.lastReceived("/webhooks/payments").orElseThrow();
        assertThat(received.body()).isEqualTo(body);
        assertThat(received.header("X-Payment-Signature")).contains("sha256=abc123");
    }

    @Test
    void jwksIsPublic() {
        Browser browser = new Browser(port);
        Browser.Reply reply = browser.get("/.well-known/jwks.json");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("keys").isArray()).isTrue();
    }
}
