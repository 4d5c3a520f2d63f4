package dev.waitroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The waiting page and the shop page over real HTTP in each language (docs/operating/page-language.md): the waitroom_lang cookie,
 * else Accept-Language, else English; one cacheable variant per language with Vary, Content-Language and its own ETag;
 * the security headers of every page; a malformed cookie or header still gets the English page.
 */
@GatewayIntegrationTest
class PageLanguageTests {

    @LocalServerPort
    int port;

    @Test
    void acceptLanguageChoosesThePagesLanguage() {
        Browser browser = new Browser(port);
        Browser.Reply german = browser.get("/events/summer-gig", "Accept-Language", "de-AT,de;q=0.9,en;q=0.5");
        assertThat(german.status()).isEqualTo(200);
        assertThat(german.body())
                .contains("<html lang=\"de\"")
                .contains("<title>Warteraum</title>")
                .contains("<option value=\"de\" lang=\"de\" selected>Deutsch</option>");
        assertThat(german.header("Content-Language")).contains("de");
        assertThat(german.header("Vary"))
                .hasValueSatisfying(
                        vary -> assertThat(vary).contains("Accept-Language").contains("Cookie"));

        Browser.Reply spanishShop = browser.get("/events/summer-gig/shop-ui", "Accept-Language", "es-MX");
        assertThat(spanishShop.body()).contains("<html lang=\"es\"").contains("Elija su asiento");

        Browser.Reply english = browser.get("/events/summer-gig");
        assertThat(english.body()).contains("<html lang=\"en\"").contains("<title>Waiting room</title>");
        assertThat(english.header("Content-Language")).contains("en");
    }

    @Test
    void theLanguageCookieBeatsAcceptLanguage() {
        Browser browser = new Browser(port);
        browser.setCookie("waitroom_lang", "es", "/");
        Browser.Reply page = browser.get("/events/summer-gig", "Accept-Language", "de");
        assertThat(page.body()).contains("<html lang=\"es\"").contains("<title>Sala de espera</title>");
        assertThat(page.allHeaders("Set-Cookie"))
                .as("the page never sets a cookie")
                .isEmpty();
    }

    @Test
    void eachLanguageIsItsOwnCacheableVariantWithTheSecurityHeaders() {
        Browser browser = new Browser(port);
        String englishTag = browser.get("/events/a-gig").header("ETag").orElseThrow();
        Browser.Reply german = browser.get("/events/a-gig", "Accept-Language", "de");
        String germanTag = german.header("ETag").orElseThrow();
        assertThat(germanTag).isNotEqualTo(englishTag);
        assertThat(german.header("Cache-Control"))
                .hasValueSatisfying(cc -> assertThat(cc).contains("public").contains("max-age=60"));
        assertThat(german.header("Content-Security-Policy"))
                .hasValueSatisfying(
                        csp -> assertThat(csp).contains("script-src 'self'").contains("default-src 'self'"));
        assertThat(german.header("X-Content-Type-Options")).contains("nosniff");
        assertThat(german.header("Referrer-Policy")).contains("no-referrer");

        Browser.Reply unchanged = browser.get("/events/other-gig", "Accept-Language", "de", "If-None-Match", germanTag);
        assertThat(unchanged.status()).isEqualTo(304);
        assertThat(unchanged.header("Vary"))
                .hasValueSatisfying(vary -> assertThat(vary).contains("Accept-Language"));
        assertThat(browser.get("/events/other-gig", "Accept-Language", "es", "If-None-Match", germanTag)
                        .status())
                .as("another language is other bytes")
                .isEqualTo(200);
    }

    @ParameterizedTest(name = "Accept-Language [{0}]")
    @ValueSource(strings = {"de;q=abc", ";;;,,,", "*", "xx-yy-zz", "de;q=2", "\u00e9s"})
    void aMalformedAcceptLanguageGetsTheEnglishPage(String header) {
        Browser browser = new Browser(port);
        browser.setCookie("waitroom_lang", "not!a!tag", "/");
        Browser.Reply page = browser.get("/events/summer-gig", "Accept-Language", header);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<html lang=\"en\"");
    }

    @Test
    void anOverlongAcceptLanguageGetsTheEnglishPage() {
        Browser browser = new Browser(port);
        Browser.Reply page = browser.get("/events/summer-gig", "Accept-Language", "de," + "x-abc;q=0.1,".repeat(300));
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<html lang=\"en\"");
    }
}
