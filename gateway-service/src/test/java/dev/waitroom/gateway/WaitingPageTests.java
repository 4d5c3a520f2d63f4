package dev.waitroom.gateway;

import static dev.waitroom.gateway.RoutingTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

@GatewayIntegrationTest
class WaitingPageTests {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void waitingPageIsStaticCacheableAndSetsNoCookie() {
        Browser browser = new Browser(port);
        Browser.Reply page = browser.get("/events/summer-gig");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type"))
                .hasValueSatisfying(ct -> assertThat(ct).startsWith("text/html"));
        assertThat(page.header("Cache-Control"))
                .hasValueSatisfying(cc -> assertThat(cc).contains("public").contains("max-age=60"));
        assertThat(page.header("Content-Security-Policy"))
                .hasValueSatisfying(csp -> assertThat(csp).contains("script-src 'self'"));
        assertThat(page.allHeaders("Set-Cookie"))
                .as("shared caches may keep it")
                .isEmpty();
        assertThat(page.body()).contains("aria-live=\"polite\"").contains("not a guarantee");

        String etag = page.header("ETag").orElseThrow();
        Browser.Reply again = browser.get("/events/another-event", "If-None-Match", etag);
        assertThat(again.status()).as("same bytes for every event").isEqualTo(304);

        Browser.Reply shop = browser.get("/events/summer-gig/shop-ui");
        assertThat(shop.status()).isEqualTo(200);
        assertThat(shop.allHeaders("Set-Cookie")).isEmpty();
    }

    @Test
    void assetsAreServedWithCacheHeaders() {
        Browser browser = new Browser(port);
        for (String asset :
                new String[] {"/assets/waiting.js", "/assets/common.js", "/assets/shop.js", "/assets/waitroom.css"}) {
            Browser.Reply reply = browser.get(asset);
            assertThat(reply.status()).as(asset).isEqualTo(200);
            assertThat(reply.header("Cache-Control"))
                    .as(asset)
                    .hasValueSatisfying(cc -> assertThat(cc).contains("max-age=300"));
            assertThat(reply.allHeaders("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void pageAndAssetsAreCompressedForClientsThatAcceptIt() {
        Browser browser = new Browser(port);
        assertThat(browser.get("/events/summer-gig", "Accept-Encoding", "gzip").header("Content-Encoding"))
                .contains("gzip");
        assertThat(browser.get("/assets/waiting.js", "Accept-Encoding", "gzip").header("Content-Encoding"))
                .contains("gzip");
    }

    @Test
    void malformedEventIdIsAProblemNotAPage() {
        Browser browser = new Browser(port);
        assertProblem(browser.get("/events/" + "x".repeat(200)), 404, "not-found");
        assertProblem(browser.get("/events/-bad"), 404, "not-found");
    }

    @Test
    void prometheusEndpointExposesTheEdgeMetrics() {
        assertThat(new Browser(port).get("/actuator/prometheus").status())
                .as("metrics are on the management port only")
                .isEqualTo(404);
        Browser.Reply metrics = new Browser(managementPort).get("/actuator/prometheus");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.body())
                .contains("waitroom_gateway_status_polls_total")
                .contains("waitroom_gateway_visitor_cookies_total");
    }
}
