package dev.waitroom.gateway;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.assertions.LocatorAssertions;
import dev.waitroom.gateway.testing.Axe;
import dev.waitroom.gateway.testing.BrowserTest;
import dev.waitroom.gateway.testing.BrowserTestChromium;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The shop page says plainly when payments are simulated: booking's seat listing carries {@code paymentsSimulated}
 * (true while its payment simulator is on), and the page shows a banner then and only then. The listing is answered
 * in the browser here, as booking answers it with the simulator on and off. Skipped where no chromium is installed.
 */
@GatewayIntegrationTest
@BrowserTest
class ShopPageSimulatedPaymentsBrowserTests {

    private static final LocatorAssertions.ContainsTextOptions WAIT =
            new LocatorAssertions.ContainsTextOptions().setTimeout(15_000);

    @RegisterExtension
    static final BrowserTestChromium chromium = new BrowserTestChromium();

    @LocalServerPort
    int port;

    /** The shop page of a new event, with booking's seat listing answered as booking would. */
    Page shopPage(boolean paymentsSimulated) {
        String event = "sim-" + UUID.randomUUID().toString().substring(0, 12);
        Page page = chromium.newContext(new Browser.NewContextOptions()).newPage();
        page.route(
                "**/events/" + event + "/shop/seats",
                (Route route) -> route.fulfill(new Route.FulfillOptions()
                        .setStatus(200)
                        .setContentType("application/json")
                        .setBody("{\"eventId\":\"" + event + "\",\"categories\":[],\"seats\":[{\"seatId\":\"A-1\","
                                + "\"category\":\"A\",\"priceCents\":2500}],\"paymentsSimulated\":" + paymentsSimulated
                                + "}")));
        page.navigate("http://localhost:" + port + "/events/" + event + "/shop-ui");
        return page;
    }

    @Test
    void withThePaymentSimulatorOnTheShopSaysSoPlainly() {
        Page page = shopPage(true);
        assertThat(page.locator("#message")).containsText("1 seat available", WAIT); // one seat: singular
        assertThat(page.locator("#simulated")).isVisible();
        assertThat(page.locator("#simulated")).containsText("Payments are simulated");
        assertThat(page.locator("#simulated")).containsText("No card is charged and no money moves");
        Axe.assertClean(page);
        page.context().close();
    }

    @Test
    void withRealPaymentsThereIsNoBanner() {
        Page page = shopPage(false);
        assertThat(page.locator("#message")).containsText("1 seat available", WAIT); // one seat: singular
        assertThat(page.locator("#simulated")).isHidden();
        page.context().close();
    }
}
