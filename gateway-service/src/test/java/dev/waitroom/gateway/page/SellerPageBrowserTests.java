package dev.waitroom.gateway.page;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.assertions.LocatorAssertions;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.gateway.testing.Axe;
import dev.waitroom.gateway.testing.BrowserTest;
import dev.waitroom.gateway.testing.BrowserTestChromium;
import dev.waitroom.gateway.testing.CoordinatorPushes;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The seller's page in real headless Chromium against the gateway, real Redis and the stub upstreams
 * (docs/operating/the-sellers-page.md): a branded page, its logo, colours, texts and template, is axe-core clean and
 * still keeps the visitor's place; a template carrying every usual way to run script, written straight to Redis as
 * the coordinator would never have, runs none of it. Skipped, with the reason printed, where no chromium is installed.
 */
@GatewayIntegrationTest
@BrowserTest
class SellerPageBrowserTests {

    /** A 1x1 transparent PNG, the logo the cdn host answers with. */
    static final byte[] PNG = Base64.getDecoder()
            .decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");

    static final CoordinatorPushes PAGES = new CoordinatorPushes();

    @RegisterExtension
    static final BrowserTestChromium chromium = new BrowserTestChromium();

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    @Test
    void aBrandedPageIsAxeCleanAndKeepsThePlace() {
        String event = newEvent();
        upstreams.queue.event(event).admissionRate(2).addWaiting(12);
        PAGES.page(
                event,
                new PageDesign(
                        0,
                        "Tour Co",
                        "https://cdn.example.com/logo.png",
                        "Tour Co",
                        Map.of("accent", "#004d40", "bg", "#fffdf7", "panel", "#f3f1ea"),
                        Map.of("en", Map.of("page.lead", "Tour Co's queue: keep this page open.")),
                        """
                        <header class="site"><p class="brand"><img class="logo" src="{{logoUrl}}" alt="{{logoAlt}}"></p>
                        <nav><a href="https://tickets.example.com/help">Help</a></nav></header>
                        {{> waitroom}}
                        <footer class="site"><p class="small">{{brandName}} Ltd.</p></footer>
                        """,
                        List.of("cdn.example.com")));
        BrowserContext context = chromium.newContext(new Browser.NewContextOptions().setLocale("en-US"));
        Page page = context.newPage();
        List<String> images = new CopyOnWriteArrayList<>();
        page.route("https://cdn.example.com/**", route -> {
            images.add(route.request().url());
            route.fulfill(new Route.FulfillOptions().setContentType("image/png").setBodyBytes(PNG));
        });
        awaitDesign(page, event, "Tour Co's queue");
        assertThat(page.locator("#headline"))
                .hasText(PageLanguageBrowserTests.BUNDLES.english().text("waiting.headline"), wait15());
        assertThat(page.locator("#ahead")).hasText("12 people", wait15());
        assertThat(page.locator("footer")).hasText("Tour Co Ltd.");
        assertThat(page.locator("header img.logo")).hasAttribute("alt", "Tour Co");
        assertThat((Boolean) page.evaluate("() => document.querySelector('header img.logo').naturalWidth === 1"))
                .as("the CSP lets the logo's allowed host through")
                .isTrue();
        assertThat(images).contains("https://cdn.example.com/logo.png");
        assertThat((String) page.evaluate("() => getComputedStyle(document.body).backgroundColor"))
                .as("the colours' style element is allowed by its hash")
                .isEqualTo("rgb(255, 253, 247)");
        Axe.assertClean(page);
        context.close();
    }

    @Test
    void aTemplateTryingToInjectScriptRunsNone() {
        String event = newEvent();
        upstreams.queue.event(event).addWaiting(3);
        PAGES.page(
                event,
                new PageDesign(
                        0,
                        "<img src=x onerror=\"window.pwned='brand'\">",
                        null,
                        null,
                        Map.of("accent", "red;}</style><script>window.pwned='colour'</script><style>"),
                        Map.of("en", Map.of("page.lead", "<img src=x onerror=\"window.pwned='text'\">")),
                        """
                        <header><p class="seller-mark">Seller</p><script>window.pwned='script'</script>
                        <img src="https://cdn.example.com/x.png" onerror="window.pwned='onerror'" onload="window.pwned='onload'" alt="">
                        <svg onload="window.pwned='svg'"></svg><a class="js" href="javascript:window.pwned='link'">x</a>
                        <a href="https://tickets.example.com/" onclick="window.pwned='click'" class="go">go</a>
                        <iframe srcdoc="<script>parent.pwned='frame'</script>"></iframe>
                        <object data="javascript:window.pwned='object'"></object>
                        <form action="javascript:window.pwned='form'"><button id="submit">s</button></form>
                        <meta http-equiv="refresh" content="0;url=javascript:window.pwned='meta'">
                        <p>{{{brandName}}} {{&brandName}}</p></header>{{> waitroom}}
                        """,
                        List.of("cdn.example.com")));
        BrowserContext context = chromium.newContext(new Browser.NewContextOptions().setLocale("en-US"));
        Page page = context.newPage();
        List<String> dialogs = new CopyOnWriteArrayList<>();
        page.onDialog(dialog -> {
            dialogs.add(dialog.message());
            dialog.dismiss();
        });
        page.route(
                "https://cdn.example.com/**",
                route -> route.fulfill(
                        new Route.FulfillOptions().setContentType("image/png").setBodyBytes(PNG)));
        awaitDesign(page, event, "class=\"seller-mark\"");
        assertThat(page.locator("#headline"))
                .hasText(PageLanguageBrowserTests.BUNDLES.english().text("waiting.headline"), wait15());
        page.route("https://tickets.example.com/**", route -> route.fulfill(new Route.FulfillOptions().setBody("")));
        page.locator("a.js").click();
        assertThat(page.locator("a.js")).not().hasAttribute("href", java.util.regex.Pattern.compile(".*"));
        assertThat(page.locator("a.go")).hasAttribute("href", "https://tickets.example.com/");
        assertThat(page.locator("a.go")).not().hasAttribute("onclick", java.util.regex.Pattern.compile(".*"));
        assertThat(page.locator("form:not(#language-form):not(#code-form)").count())
                .as("no form of the template survives")
                .isZero();
        assertThat(page.evaluate("() => window.pwned === undefined ? 'none' : String(window.pwned)"))
                .isEqualTo("none");
        assertThat(page.locator("script").count())
                .as("the messages data block and Waitroom's two scripts")
                .isEqualTo(3);
        assertThat(page.locator("iframe, object, svg, meta[http-equiv]").count())
                .isZero();
        assertThat(page.locator("p")
                        .filter(new com.microsoft.playwright.Locator.FilterOptions().setHasText("<img"))
                        .count())
                .as("the brand shows as text, never as markup")
                .isPositive();
        assertThat(dialogs).isEmpty();
        context.close();
    }

    /** Opens the event's page, reloading until the design written to Redis is in force (a refresh is 100 ms here). */
    private void awaitDesign(Page page, String event, String marker) {
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .untilAsserted(() -> {
                    page.navigate("http://localhost:" + port + "/events/" + event);
                    assertThat(page.content()).contains(marker);
                });
    }

    private static LocatorAssertions.HasTextOptions wait15() {
        return new LocatorAssertions.HasTextOptions().setTimeout(15_000);
    }

    private static String newEvent() {
        return "seller-" + UUID.randomUUID().toString().substring(0, 12);
    }
}
