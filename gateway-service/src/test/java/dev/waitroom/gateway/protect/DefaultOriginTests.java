package dev.waitroom.gateway.protect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.ShopOrigin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue 27, item 1: with {@code waitroom.gateway.default-origin} set, a path no event protects passes through to it as
 * it is, never queued and without admission; Waitroom's own paths never do.
 */
@GatewayIntegrationTest
class DefaultOriginTests {

    static final ShopOrigin SITE = new ShopOrigin("site");

    @DynamicPropertySource
    static void defaultOrigin(DynamicPropertyRegistry registry) {
        registry.add("waitroom.gateway.default-origin", () -> SITE.uri().toString());
    }

    @LocalServerPort
    int port;

    @AfterAll
    static void stop() {
        SITE.close();
    }

    @Test
    void anUnprotectedPathPassesThroughUnchangedWithoutAdmission() {
        Browser browser = new Browser(port);
        Browser.Reply page = browser.get("/about/us?lang=de", "Accept", "text/html");
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        assertThat(page.body()).isEqualTo(SITE.page("/about/us", "lang=de"));
        assertThat(SITE.last("/about/us").orElseThrow().header("Waitroom-Admission"))
                .isEmpty();
    }

    @Test
    void waitroomsOwnPathsNeverReachTheDefaultOrigin() {
        Browser browser = new Browser(port);
        for (String path : new String[] {
            "/events/e1/unknown", "/internal/events", "/actuator/prometheus", "/.well-known/other", "/webhooks/other"
        }) {
            Browser.Reply reply = browser.get(path);
            assertThat(reply.status()).as(path).isEqualTo(404);
            assertThat(SITE.last(path)).as(path).isEmpty();
        }
    }
}
