package dev.waitroom.gateway.protect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.routes.ProtectedPath;
import dev.waitroom.contract.routes.Protection;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.CoordinatorPushes;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.ShopOrigin;
import dev.waitroom.gateway.testing.StubUpstreams;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue 30, item 3, through real HTTP to a real origin on loopback: an event's allow rules
 * (docs/operating/allow-rules-and-passes.md) let their paths past the admission check without any cookie, with no
 * {@code Waitroom-Admission} header (a client's own copy is dropped), counted per rule; every other path of the event
 * still needs admission, and the allowed paths keep the shop rate limit's and body limit's path through the gateway.
 */
@GatewayIntegrationTest
class AllowRulesTests {

    static final ShopOrigin SHOP = new ShopOrigin("allow");

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    final CoordinatorPushes table = new CoordinatorPushes();

    @AfterEach
    void clearTable() {
        table.clearRoutes();
    }

    @AfterAll
    static void stopOrigin() {
        SHOP.close();
    }

    static String id() {
        return "gig-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static Protection protection(String base, String... allow) {
        return new Protection(
                Protection.origin(SHOP.uri().toString()),
                null,
                List.of(ProtectedPath.of(base + "/**")),
                List.of(allow).stream().map(ProtectedPath::of).toList());
    }

    /** Writes the table and waits until the gateway routes by it. */
    void protect(String eventId, Protection protection, String queuedProbe) {
        table.protect(eventId, protection);
        Browser anonymous = new Browser(port);
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> assertThat(anonymous.get(queuedProbe).status()).isEqualTo(401));
    }

    double allowed(String eventId, String rule) {
        Counter counter = meters.find("waitroom.gateway.allowed")
                .tag("event", eventId)
                .tag("rule", rule)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void allowedPathsPassWithoutACookieWhileTheEventsOtherPathsQueue() {
        String event = id();
        String base = "/concerts/" + event;
        protect(event, protection(base, base + "/assets/**", base + "/robots.txt", base + "/healthz"), base + "/seats");

        Browser anonymous = new Browser(port);
        for (String path : List.of(base + "/assets/app.css", base + "/assets/img/logo.svg", base + "/robots.txt")) {
            Browser.Reply reply = anonymous.get(path, "Accept", "text/html");
            assertThat(reply.status()).as(path + " " + reply).isEqualTo(200);
            assertThat(reply.body()).isEqualTo(SHOP.page(path, null));
        }
        Browser.Reply health = anonymous.get(base + "/healthz?deep=1", "Waitroom-Admission", "forged.by.client");
        assertThat(health.status()).isEqualTo(200);
        ShopOrigin.Received atOrigin = SHOP.last(base + "/healthz").orElseThrow();
        assertThat(atOrigin.query()).isEqualTo("deep=1");
        assertThat(atOrigin.header("Waitroom-Admission"))
                .as("an allowed request carries no admission statement, and never a client's")
                .isEmpty();

        // the rest of the event's paths, and paths beside the allowed ones, still need admission
        for (String path :
                List.of(base + "/seats", base, base + "/assetsx", base + "/robots.txt/x", base + "/healthz2")) {
            assertThat(anonymous.get(path, "Accept", "application/json").status())
                    .as(path)
                    .isEqualTo(401);
            assertThat(SHOP.last(path)).as(path).isEmpty();
        }
        Browser.Reply navigation = anonymous.get(base + "/seats", "Accept", "text/html");
        assertThat(navigation.status()).isEqualTo(303);

        assertThat(allowed(event, base + "/assets/**")).isEqualTo(2);
        assertThat(allowed(event, base + "/robots.txt")).isEqualTo(1);
        assertThat(allowed(event, base + "/healthz")).isEqualTo(1);
    }

    @Test
    void anAdmittedBuyerStillGetsTheAdmissionHeaderOnlyOffTheAllowedPaths() {
        String event = id();
        String base = "/concerts/" + event;
        protect(event, protection(base, base + "/assets/**"), base + "/seats");
        Browser buyer = new Browser(port);
        upstreams.queue.event(event);
        assertThat(buyer.post("/events/" + event + "/queue", "{}").status()).isIn(200, 201);
        upstreams.queue.event(event).offerNext(1);
        assertThat(buyer.post("/events/" + event + "/admission/claim", "{}").status())
                .isEqualTo(200);

        assertThat(buyer.get(base + "/seats").status()).isEqualTo(200);
        assertThat(SHOP.last(base + "/seats").orElseThrow().header("Waitroom-Admission"))
                .isPresent();
        assertThat(buyer.get(base + "/assets/app.js").status()).isEqualTo(200);
        ShopOrigin.Received asset = SHOP.last(base + "/assets/app.js").orElseThrow();
        assertThat(asset.header("Waitroom-Admission")).isEmpty();
        assertThat(asset.header("Cookie").orElse(""))
                .as("Waitroom's own cookies never reach the origin")
                .doesNotContain("wr_");
    }

    @Test
    void forwardAuthAnswersAnAllowedPathWithoutAdmissionAndWithoutAHeader() {
        String event = id();
        String base = "/concerts/" + event;
        protect(event, protection(base, base + "/robots.txt"), base + "/seats");
        Browser anonymous = new Browser(port);
        Browser.Reply allowed =
                anonymous.get("/forward-auth", "X-Original-URI", base + "/robots.txt", "X-Original-Method", "GET");
        assertThat(allowed.status()).as(allowed.toString()).isEqualTo(200);
        assertThat(allowed.header("Waitroom-Admission")).isEmpty();
        anonymous
                .get("/forward-auth", "X-Original-URI", base + "/seats", "X-Original-Method", "GET")
                .assertProblem(401, "admission-token-required");
    }

    @Test
    void removingTheRuleQueuesThePathAgainWithinTheRefresh() {
        String event = id();
        String base = "/concerts/" + event;
        protect(event, protection(base, base + "/robots.txt"), base + "/seats");
        assertThat(new Browser(port).get(base + "/robots.txt").status()).isEqualTo(200);
        table.protect(event, protection(base));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(new Browser(port)
                                .get(base + "/robots.txt", "Accept", "application/json")
                                .status())
                        .isEqualTo(401));
    }

    @Test
    void aPassInItsHeaderOpensTheProtectedPathsWithoutQueueingAndIsNeverEchoed() {
        String event = id();
        String base = "/concerts/" + event;
        protect(event, protection(base), base + "/seats");
        upstreams.queue.event(event);
        String pass = "wrp_0123456789abcdef_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 24) + "abcdefghijklmnopqrs";
        upstreams.coordinator.acceptPass(event, pass);

        Browser staff = new Browser(port);
        Browser.Reply refused = staff.post("/events/" + event + "/admission/pass", null, "Waitroom-Pass", "wrp_forged");
        refused.assertProblem(401, "pass-invalid");

        Browser.Reply exchanged = staff.post("/events/" + event + "/admission/pass", null, "Waitroom-Pass", pass);
        assertThat(exchanged.status()).as(exchanged.toString()).isEqualTo(200);
        assertThat(exchanged.allHeaders("Set-Cookie"))
                .as("the event's own admission cookie, as a claim sets it")
                .anyMatch(c -> c.startsWith("wr_at_" + event + "=") && c.contains("Path=/;"));
        assertThat(exchanged.body()).doesNotContain(pass);
        assertThat(upstreams
                        .coordinator
                        .lastReceived("/events/" + event + "/admission/pass")
                        .orElseThrow()
                        .header("X-Waitroom-Visitor"))
                .as("the gateway's visitor id goes with the pass")
                .isPresent();

        assertThat(staff.get(base + "/seats").status()).isEqualTo(200);
        assertThat(SHOP.last(base + "/seats").orElseThrow().header("Waitroom-Admission"))
                .isPresent();
    }
}
