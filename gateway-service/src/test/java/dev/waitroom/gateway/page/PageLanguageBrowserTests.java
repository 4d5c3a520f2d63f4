package dev.waitroom.gateway.page;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.Cookie;
import com.microsoft.playwright.options.SameSiteAttribute;
import dev.waitroom.gateway.testing.Axe;
import dev.waitroom.gateway.testing.BrowserTest;
import dev.waitroom.gateway.testing.BrowserTestChromium;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.SyntheticClients;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The visitor's language and time in real headless Chromium against the gateway and the stub upstreams
 * (docs/operating/page-language.md): the page in English, German and Spanish is axe-core clean, switcher included;
 * Accept-Language picks the language; the switcher's choice persists across reloads and beats Accept-Language; "1
 * person" and "2 people" in each language's plural forms; times in the browser's own time zone; the estimate's
 * caveat and the sign-in problems in the page's language; a malformed cookie or Accept-Language still shows the
 * English page. Skipped, with the reason printed, where no chromium is installed.
 */
@GatewayIntegrationTest
@BrowserTest
class PageLanguageBrowserTests {

    private static final LocatorAssertions.ContainsTextOptions WAIT =
            new LocatorAssertions.ContainsTextOptions().setTimeout(15_000);

    private static final LocatorAssertions.HasAttributeOptions WAIT_ATTRIBUTE =
            new LocatorAssertions.HasAttributeOptions().setTimeout(15_000);

    static final MessageBundles BUNDLES = MessageBundles.load(MessageBundles.LOCATION);

    @RegisterExtension
    static final BrowserTestChromium chromium = new BrowserTestChromium();

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    @ParameterizedTest(name = "{0}")
    @CsvSource({"en-US, en, 40 people", "de-DE, de, 40 Personen", "es-ES, es, 40 personas"})
    void eachLanguageIsAxeCleanWithItsSwitcher(String locale, String tag, String ahead) {
        String event = newEvent();
        upstreams.queue.event(event).admissionRate(2).addWaiting(40);
        Page page = open(event, new Browser.NewContextOptions().setLocale(locale));
        MessageBundles.Bundle bundle = bundle(tag);
        assertThat(page.locator("html")).hasAttribute("lang", tag);
        assertThat(page.locator("#headline")).hasText(bundle.text("waiting.headline"), hasText());
        assertThat(page.locator("#ahead")).hasText(ahead);
        assertThat(page.locator("#wait")).not().containsText("Not known yet");
        assertThat(page.getByLabel(bundle.text("language.label"))).hasValue(tag);
        assertThat(page.locator("#language option")).hasText(new String[] {"English", "Deutsch", "Español"});
        assertThat(page.locator("#rules li[data-rule=identityScope]"))
                .hasText(bundle.text("rule.identityScope.BROWSER"), hasText());
        page.locator("#language").focus();
        page.screenshot(new Page.ScreenshotOptions()
                .setPath(java.nio.file.Path.of("target", "waiting-page-" + tag + ".png"))
                .setFullPage(true));
        Axe.assertClean(page);

        Page shop = page.context().newPage();
        shop.navigate(url(event) + "/shop-ui");
        assertThat(shop.locator("h1")).hasText(bundle.text("shop.heading"));
        Axe.assertClean(shop);
        page.context().close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"en-US, 1 person, 2 people", "de-DE, 1 Person, 2 Personen", "es-ES, 1 persona, 2 personas"})
    void oneAndTwoPeopleTakeTheLanguagesPluralForms(String locale, String one, String two) {
        String single = newEvent();
        upstreams.queue.event(single).addWaiting(1);
        String pair = newEvent();
        upstreams.queue.event(pair).addWaiting(2);
        BrowserContext context = chromium.newContext(new Browser.NewContextOptions().setLocale(locale));
        Page first = context.newPage();
        first.navigate(url(single));
        Page second = context.newPage();
        second.navigate(url(pair));
        assertThat(first.locator("#ahead")).hasText(one, hasText());
        assertThat(second.locator("#ahead")).hasText(two, hasText());
        context.close();
    }

    @Test
    void acceptLanguagePicksTheLanguageAndTheSwitcherPersistsAndBeatsIt() {
        String event = newEvent();
        upstreams.queue.event(event).addWaiting(3);
        Page page = open(event, new Browser.NewContextOptions().setLocale("de-DE"));
        assertThat(page.locator("html")).hasAttribute("lang", "de");
        assertThat(page.locator("#headline")).hasText(bundle("de").text("waiting.headline"), hasText());
        assertThat(page.locator("#ahead")).hasText("3 Personen");
        String receipt = page.locator("#receipt").textContent();

        page.getByLabel("Sprache").selectOption("es");
        assertThat(page.locator("html")).hasAttribute("lang", "de"); // choosing alone does not reload
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Wechseln"))
                .click();
        assertThat(page.locator("html")).hasAttribute("lang", "es", WAIT_ATTRIBUTE);
        assertThat(page.locator("#headline")).hasText(bundle("es").text("waiting.headline"), hasText());
        assertThat(page.locator("#ahead")).hasText("3 personas");
        assertThat(page.locator("#receipt")).hasText(receipt); // the same place, now in Spanish

        Cookie cookie = page.context().cookies().stream()
                .filter(c -> c.name.equals("waitroom_lang"))
                .findFirst()
                .orElseThrow();
        assertThat(cookie.value).isEqualTo("es");
        assertThat(cookie.path).isEqualTo("/");
        assertThat(cookie.sameSite).isEqualTo(SameSiteAttribute.LAX);
        assertThat(cookie.httpOnly).isFalse();
        assertThat(Instant.ofEpochSecond(cookie.expires.longValue()))
                .isBetween(
                        Instant.now().plus(Duration.ofDays(364)), Instant.now().plus(Duration.ofDays(366)));

        page.reload();
        assertThat(page.locator("html")).hasAttribute("lang", "es");
        assertThat(page.locator("#headline")).hasText(bundle("es").text("waiting.headline"), hasText());
        Page shop = page.context().newPage();
        shop.navigate(url(event) + "/shop-ui");
        assertThat(shop.locator("html")).hasAttribute("lang", "es");
        assertThat(shop.getByLabel("Idioma")).hasValue("es");

        // by keyboard alone: focus the list, move to English, press the button
        shop.getByLabel("Idioma").focus();
        shop.keyboard().press("Home");
        assertThat(shop.getByLabel("Idioma")).hasValue("en");
        assertThat(shop.locator("html")).hasAttribute("lang", "es");
        shop.keyboard().press("Tab");
        shop.keyboard().press("Enter");
        assertThat(shop.locator("html")).hasAttribute("lang", "en", WAIT_ATTRIBUTE);
        page.reload();
        assertThat(page.locator("html")).hasAttribute("lang", "en"); // chosen over Accept-Language de
        page.context().close();
    }

    @Test
    void timesAreShownInTheBrowsersTimeZone() {
        Instant opensAt = Instant.now()
                .truncatedTo(ChronoUnit.DAYS)
                .plus(Duration.ofDays(3))
                .plus(Duration.ofHours(18));
        String event = newEvent();
        upstreams
                .queue
                .event(event)
                .phase("SCHEDULED")
                .drawCompletedAt(null)
                .opensAt(opensAt)
                .addWaiting(4);
        assertOpensAt(event, opensAt, "de-DE", "Asia/Tokyo", Locale.GERMAN, "d. MMMM");
        assertOpensAt(event, opensAt, "es-ES", "America/New_York", Locale.forLanguageTag("es"), "d 'de' MMMM");
        assertOpensAt(event, opensAt, "de-DE", "Pacific/Kiritimati", Locale.GERMAN, "d. MMMM");
    }

    private void assertOpensAt(
            String event, Instant opensAt, String locale, String zone, Locale javaLocale, String dayPattern) {
        Page page =
                open(event, new Browser.NewContextOptions().setLocale(locale).setTimezoneId(zone));
        String clock =
                DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.of(zone)).format(opensAt);
        String day = DateTimeFormatter.ofPattern(dayPattern, javaLocale)
                .withZone(ZoneId.of(zone))
                .format(opensAt);
        assertThat(page.locator("#opens-at")).containsText(clock, WAIT);
        assertThat(page.locator("#opens-at")).containsText(day);
        assertThat(page.locator("#countdown")).not().isEmpty();
        assertThat(page.locator("#rules li[data-rule=opensAt]")).containsText(clock);
        page.context().close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"es-ES, es, SLOWED", "de-DE, de, MEASURING", "en-US, en, RESUMED", "en-US, en, SPED_UP"})
    void theEstimatesCaveatSaysWhyTheRangeIsWide(String locale, String tag, String caveat) {
        String event = newEvent();
        upstreams.queue.event(event);
        BrowserContext context = chromium.newContext(new Browser.NewContextOptions().setLocale(locale));
        Page page = context.newPage();
        answerJoinWith(page, event, 201, "application/json", waitingStatus(caveat));
        page.navigate(url(event));
        MessageBundles.Bundle bundle = bundle(tag);
        assertThat(page.locator("#caveat")).hasText(bundle.text("caveat." + caveat), hasText());
        assertThat(page.locator("#wait"))
                .containsText(Map.of("en", "10 minutes", "de", "10 Minuten", "es", "10 minutos")
                        .get(tag));
        assertThat(page.locator("#wait"))
                .containsText(Map.of("en", "30 minutes", "de", "30 Minuten", "es", "30 minutos")
                        .get(tag));
        Axe.assertClean(page);
        context.close();
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"A_CODE_FROM_THE_FUTURE", "constructor", "toString"})
    void anUnknownCaveatSaysNothing(String code) {
        String event = newEvent();
        upstreams.queue.event(event);
        Page page = chromium.newContext(new Browser.NewContextOptions()).newPage();
        answerJoinWith(page, event, 201, "application/json", waitingStatus(code));
        page.navigate(url(event));
        assertThat(page.locator("#wait")).containsText("30 minutes", WAIT);
        assertThat(page.locator("#caveat")).isHidden();
        page.context().close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"de-DE, de, sign-in-required", "es-ES, es, account-token-invalid", "en-US, en, sign-in-required"})
    void signInProblemsLinkToTheSignIn(String locale, String tag, String problem) {
        String event = newEvent();
        upstreams.queue.event(event);
        Page page = chromium.newContext(new Browser.NewContextOptions().setLocale(locale))
                .newPage();
        answerJoinWith(
                page,
                event,
                401,
                "application/problem+json",
                signInProblem(problem, "https://id.example/sign-in?to=gig"));
        page.navigate(url(event));
        MessageBundles.Bundle bundle = bundle(tag);
        String kind = problem.equals("sign-in-required") ? "signIn.required" : "signIn.expired";
        assertThat(page.locator("#headline")).hasText(bundle.text(kind + ".headline"), hasText());
        assertThat(page.locator("#detail")).containsText(bundle.text(kind + ".detail"));
        assertThat(page.getByRole(
                        com.microsoft.playwright.options.AriaRole.LINK,
                        new Page.GetByRoleOptions().setName(bundle.text("signIn.link"))))
                .hasAttribute("href", "https://id.example/sign-in?to=gig");
        Axe.assertClean(page);
        page.context().close();
    }

    @Test
    void aSignInUrlThatIsNotHttpIsNoLink() {
        String event = newEvent();
        upstreams.queue.event(event);
        Page page = chromium.newContext(new Browser.NewContextOptions()).newPage();
        answerJoinWith(
                page, event, 401, "application/problem+json", signInProblem("sign-in-required", "javascript:alert(1)"));
        page.navigate(url(event));
        assertThat(page.locator("#headline")).hasText(bundle("en").text("signIn.required.headline"), hasText());
        assertThat(page.locator("#detail")).containsText(bundle("en").text("signIn.noLink"));
        assertThat(page.locator("#sign-in-box")).isHidden();
        page.context().close();
    }

    @ParameterizedTest(name = "cookie [{0}], Accept-Language [{1}]")
    @CsvSource(
            delimiter = '|',
            value = {"zz!!bad | de;q=abc", "../../etc | ;;;,,,", "not-a-language-at-all | *", "x | xx-yy"})
    void aMalformedCookieOrAcceptLanguageStillShowsTheEnglishPage(String cookie, String acceptLanguage) {
        String event = newEvent();
        upstreams.queue.event(event).addWaiting(2);
        BrowserContext context = chromium.newContext(new Browser.NewContextOptions()
                .setExtraHTTPHeaders(
                        Map.of("X-Forwarded-For", SyntheticClients.next(), "Accept-Language", acceptLanguage)));
        context.addCookies(List.of(new Cookie("waitroom_lang", cookie).setUrl(url(event))));
        Page page = context.newPage();
        page.navigate(url(event));
        assertThat(page.locator("html")).hasAttribute("lang", "en");
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(page.locator("#ahead")).hasText("2 people");
        context.close();
    }

    private void answerJoinWith(Page page, String event, int status, String contentType, String body) {
        page.route(url(event) + "/queue", route -> {
            if (route.request().method().equals("POST")) {
                route.fulfill(new Route.FulfillOptions()
                        .setStatus(status)
                        .setHeaders(Map.of("Content-Type", contentType))
                        .setBody(body));
            } else {
                route.resume();
            }
        });
    }

    /** A join answered with a waiting status whose estimate carries {@code caveat}; no poll for ten minutes. */
    private static String waitingStatus(String caveat) {
        return """
                {"state":"WAITING","phase":"OPEN","mode":"QUEUEING","position":{"aheadMin":20,"aheadMax":29},
                 "estimatedWaitSeconds":{"min":600,"max":1800,"caveat":"%s"},"offer":null,"pollAfterSeconds":600,
                 "announcement":null,"receipt":"42"}""".formatted(caveat);
    }

    private static String signInProblem(String slug, String signInUrl) {
        return """
                {"type":"https://waitroom.dev/problems/%s","title":"Sign-in required","status":401,
                 "detail":"This event gives places to accounts.","signInUrl":"%s"}""".formatted(slug, signInUrl);
    }

    private Page open(String event, Browser.NewContextOptions options) {
        Page page = chromium.newContext(options).newPage();
        page.navigate(url(event));
        return page;
    }

    private String url(String event) {
        return "http://localhost:" + port + "/events/" + event;
    }

    private static String newEvent() {
        return "lang-" + UUID.randomUUID().toString().substring(0, 12);
    }

    private static MessageBundles.Bundle bundle(String tag) {
        return BUNDLES.all().stream()
                .filter(b -> b.tag().equals(tag))
                .findFirst()
                .orElseThrow();
    }

    private static LocatorAssertions.HasTextOptions hasText() {
        return new LocatorAssertions.HasTextOptions().setTimeout(15_000);
    }
}
