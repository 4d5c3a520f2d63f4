package dev.waitroom.gateway.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.CoordinatorPushes;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The seller's page at the gateway over real HTTP and Redis (docs/operating/the-sellers-page.md): a design the
 * coordinator wrote reaches the event's page within a refresh, with its brand, logo, texts (missing keys from the
 * bundle) and its own CSP (its colours' style hash, its allowed image hosts and no others); other events keep the
 * default page and policy; a design that the coordinator would have refused still renders no script, handler or
 * {@code javascript:} link; the preview needs the ops credential, runs no script and is never cached.
 */
@GatewayIntegrationTest
class SellerPageTests {

    static final CoordinatorPushes PAGES = new CoordinatorPushes();

    @LocalServerPort
    int port;

    private static String newEvent() {
        return "brand-" + UUID.randomUUID().toString().substring(0, 12);
    }

    private Browser.Reply awaitPage(String event, String lang, String expected) {
        Browser browser = new Browser(port);
        Browser.Reply[] last = new Browser.Reply[1];
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            last[0] = browser.get("/events/" + event, "Accept-Language", lang);
            assertThat(last[0].body()).contains(expected);
        });
        return last[0];
    }

    static PageDesign branded(String template) {
        return new PageDesign(
                0,
                "Tour Co",
                "https://cdn.example.com/logo.png",
                "Tour Co logo",
                Map.of("accent", "#004d40", "bg", "#fffdf7"),
                Map.of(
                        "en", Map.of("page.lead", "Tour Co's queue: keep this page open."),
                        "de", Map.of("page.lead", "Die Warteschlange von Tour Co.")),
                template,
                List.of("cdn.example.com", "evil.example"));
    }

    @Test
    void aDesignReachesItsEventsPageWithItsOwnPolicy() throws Exception {
        String event = newEvent();
        Browser browser = new Browser(port);
        Browser.Reply before = browser.get("/events/" + event);
        assertThat(before.header("Content-Security-Policy")).contains(WaitingPageRoutes.CONTENT_SECURITY_POLICY);
        assertThat(before.body()).contains("<p class=\"brand\">Waitroom</p>");

        PAGES.page(event, branded(null));
        Browser.Reply page = awaitPage(event, "en", "Tour Co&#39;s queue");
        assertThat(page.body())
                .contains("<img class=\"logo\" src=\"https://cdn.example.com/logo.png\" alt=\"Tour Co logo\">Tour Co")
                .as("a key the design leaves out keeps the bundle's text")
                .contains("Entry to the shop is not a guarantee of tickets.");
        String csp = page.header("Content-Security-Policy").orElseThrow();
        assertThat(csp)
                .contains("img-src 'self' data: https://cdn.example.com;")
                .as("a host the gateway does not allow is not in the policy")
                .doesNotContain("evil.example")
                .contains("script-src 'self';");
        Matcher style = Pattern.compile("<style>(.*?)</style>").matcher(page.body());
        assertThat(style.find()).isTrue();
        assertThat(style.group(1)).isEqualTo(":root{--accent:#004d40;--bg:#fffdf7;}");
        String hash = Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("SHA-256")
                        .digest(style.group(1).getBytes(StandardCharsets.UTF_8)));
        assertThat(csp).contains("style-src 'self' 'sha256-" + hash + "';");

        Browser.Reply german = awaitPage(event, "de", "Die Warteschlange von Tour Co.");
        assertThat(german.header("Content-Language")).contains("de");
        Browser.Reply spanish = browser.get("/events/" + event, "Accept-Language", "es");
        assertThat(spanish.body())
                .as("a language the design has no texts for keeps its bundle's")
                .contains(PageLanguageBrowserTests.BUNDLES.all().stream()
                        .filter(b -> b.tag().equals("es"))
                        .findFirst()
                        .orElseThrow()
                        .text("page.lead"));

        Browser.Reply other = browser.get("/events/" + newEvent());
        assertThat(other.header("Content-Security-Policy")).contains(WaitingPageRoutes.CONTENT_SECURITY_POLICY);
        assertThat(other.body()).doesNotContain("Tour Co");
        assertThat(other.header("ETag")).isNotEqualTo(page.header("ETag"));
    }

    @Test
    void aNewVersionReplacesThePage() {
        String event = newEvent();
        PAGES.page(event, branded(null));
        awaitPage(event, "en", "Tour Co&#39;s queue");
        PageDesign renamed = new PageDesign(0, "Tour Co Live", null, null, null, null, null, null);
        PAGES.page(event, renamed);
        Browser.Reply page = awaitPage(event, "en", "<p class=\"brand\">Tour Co Live</p>");
        assertThat(page.body()).doesNotContain("logo.png").doesNotContain("<style>");
        assertThat(page.header("Content-Security-Policy")).contains(WaitingPageRoutes.CONTENT_SECURITY_POLICY);
    }

    @Test
    void aTemplateFramesWaitroomsPartAndCarriesNoScriptWhateverRedisHolds() {
        String event = newEvent();
        String template = """
                <header class="top"><p>{{brandName}} <script>window.pwned=1</script></p>
                <img src="https://cdn.example.com/x.png" onerror="window.pwned=2" alt="">
                <a href="javascript:window.pwned=3">x</a><a href="https://tickets.example.com/" onclick="x()">Tickets</a>
                <style>body{background:url(https://evil.example/x)}</style><iframe src="https://evil.example"></iframe>
                {{#logoUrl}}<p class="logo">logo</p>{{/logoUrl}}{{^logoUrl}}<p class="nologo">no logo</p>{{/logoUrl}}
                </header>{{> waitroom}}<footer><p>{{{brandName}}} in {{lang}}</p></footer>
                """;
        PageDesign design =
                new PageDesign(0, "<b>Tour</b> & Co", null, null, null, null, template, List.of("cdn.example.com"));
        PAGES.page(event, design);
        Browser.Reply page = awaitPage(event, "en", "<header class=\"top\">");
        String body = page.body();
        assertThat(body)
                .doesNotContain("pwned")
                .doesNotContain("javascript:")
                .doesNotContain("onclick")
                .doesNotContain("<iframe")
                .doesNotContain("evil.example")
                .doesNotContain("<b>Tour</b>")
                .contains("&lt;b&gt;Tour&lt;/b&gt; &amp; Co")
                .contains("<a href=\"https://tickets.example.com/\">Tickets</a>")
                .contains("in en</p></footer>")
                .as("a section on a variable left empty is not shown, its inverse is")
                .contains("<p class=\"nologo\">no logo</p>")
                .doesNotContain("<p class=\"logo\">")
                .as("Waitroom's own part: the switcher, the live region and the scripts")
                .contains("id=\"language-form\"")
                .contains("aria-live=\"polite\"")
                .contains("<script src=\"/assets/waiting.js\" defer></script>");
        assertThat(Pattern.compile("<script").matcher(body).results().count())
                .as("the messages data block and Waitroom's two scripts, nothing of the template")
                .isEqualTo(3);
        assertThat(body).as("the template replaces Waitroom's own header").doesNotContain("<header class=\"site\">");
        assertThat(body.indexOf("<header class=\"top\">")).isLessThan(body.indexOf("<main id=\"main\">"));
        assertThat(body.indexOf("</main>")).isLessThan(body.indexOf("<footer>"));
    }

    @Test
    void thePreviewNeedsTheOpsCredentialRunsNoScriptAndIsNeverCached() {
        String event = newEvent();
        PAGES.page(event, branded(null));
        Browser browser = new Browser(port);
        browser.get("/admin/events/" + event + "/page/preview").assertProblem(401, "ops-credential-required");
        browser.get("/admin/events/" + event + "/page/preview", "Authorization", "Bearer wrong")
                .assertProblem(401, "ops-credential-required");

        Browser.Reply preview = browser.get(
                "/admin/events/" + event + "/page/preview?lang=de",
                "Authorization",
                "Bearer " + StubUpstreams.OPS_TOKEN);
        assertThat(preview.status()).isEqualTo(200);
        assertThat(preview.header("Cache-Control")).contains("no-store");
        assertThat(preview.header("X-Robots-Tag")).contains("noindex");
        assertThat(preview.header("Content-Language")).contains("de");
        assertThat(preview.header("Content-Security-Policy").orElseThrow()).contains("https://cdn.example.com");
        assertThat(preview.body())
                .contains("Die Warteschlange von Tour Co.")
                .contains("Tour Co logo")
                .doesNotContain("<script src=");
    }
}
