package dev.waitroom.gateway;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import dev.waitroom.gateway.testing.Axe;
import dev.waitroom.gateway.testing.BrowserTest;
import dev.waitroom.gateway.testing.BrowserTestChromium;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.queue.FakeQueueEvent;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The waiting page and the shop page in Debian's headless Chromium against the gateway and stub
 * upstreams. Skipped, with the reason printed, where no chromium is installed.
 */
@GatewayIntegrationTest
@BrowserTest
class WaitingPageBrowserTests {

    private static final LocatorAssertions.ContainsTextOptions WAIT =
            new LocatorAssertions.ContainsTextOptions().setTimeout(15_000);

    @RegisterExtension
    static final BrowserTestChromium chromium = new BrowserTestChromium();

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    String newEvent() {
        return "page-" + UUID.randomUUID().toString().substring(0, 12);
    }

    Page open(String event) {
        Page page = chromium.newContext(new Browser.NewContextOptions()).newPage();
        page.navigate("http://localhost:" + port + "/events/" + event);
        return page;
    }

    @Test
    void waitingPageShowsThePlaceAndPassesAxe() {
        String event = newEvent();
        upstreams.queue.event(event).admissionRate(2).addWaiting(40);
        Page page = open(event);
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(page.locator("#ahead")).containsText("40 people", WAIT);
        assertThat(page.locator("#wait")).containsText("estimate", WAIT);
        assertThat(page.locator("#receipt")).not().containsText("Given when you join");
        assertThat(page.locator("#commitment")).containsText("3f1c0e8a", WAIT);
        assertThat(page.locator("#live")).hasAttribute("aria-live", "polite");

        page.screenshot(new Page.ScreenshotOptions()
                .setPath(Path.of("target", "waiting-page.png"))
                .setFullPage(true));
        Axe.assertClean(page);
        page.context().close();
    }

    @Test
    void anAccessCodeIsRedeemedFromTheFormAndTheAnswerIsSaidInTheLiveRegion() {
        String event = newEvent();
        upstreams.queue.event(event).admissionRate(2).addWaiting(5);
        Page page = open(event);
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(page.locator("#lane")).containsText("General queue", WAIT);

        page.getByRole(AriaRole.TEXTBOX, new Page.GetByRoleOptions().setName("Access code"))
                .fill("NOTGOO-DNOTGO-ODNOTG-OODNOT");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Use code"))
                .click();
        assertThat(page.locator("#code-result")).containsText("not accepted for this sale", WAIT);
        assertThat(page.locator("#code")).hasValue("NOTGOO-DNOTGO-ODNOTG-OODNOT");

        page.getByRole(AriaRole.TEXTBOX, new Page.GetByRoleOptions().setName("Access code"))
                .fill(dev.waitroom.gateway.testing.StubCoordinator.GOOD_CODE);
        page.locator("#code").press("Enter");
        assertThat(page.locator("#code-result")).containsText("you are now in the “presale” lane", WAIT);
        assertThat(page.locator("#code")).hasValue("");
        assertThat(page.locator("#code-result")).hasAttribute("role", "status");
        assertThat(page.url()).doesNotContainIgnoringCase("goodgo");

        Axe.assertClean(page);
        page.context().close();
    }

    @Test
    void preSalePageShowsTheGroupTheCountdownAndTheDrawCommitment() {
        String event = newEvent();
        upstreams
                .queue
                .event(event)
                .phase("SCHEDULED")
                .drawCompletedAt(null)
                .opensAt(Instant.now().plusSeconds(3600))
                .addWaiting(12);
        Page page = open(event);
        assertThat(page.locator("#headline")).containsText("pre-sale group", WAIT);
        assertThat(page.locator("#ahead")).containsText("13 people in the pre-sale group so far", WAIT);
        assertThat(page.locator("#countdown")).containsText("Opens in", WAIT);
        assertThat(page.locator("#commitment")).containsText("3f1c0e8a", WAIT);
        assertThat(page.locator("#seed")).containsText("Revealed after the draw");
        assertThat(page.locator("#countdown")).hasAttribute("aria-live", "off");
        Axe.assertClean(page);
        page.context().close();
    }

    /** The truth about pauses (docs/operating/schedules-and-pauses.md): the hold in the status, said plainly. */
    @Test
    void theShopsHealthHoldingAdmissionIsSaidPlainlyWithoutAnEstimate() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).addWaiting(5);
        model.admissionHold(dev.waitroom.contract.queue.AdmissionHold.of(
                dev.waitroom.contract.queue.AdmissionHold.Cause.SHOP_PAUSED, null, null));
        Page page = open(event);
        assertThat(page.locator("#headline"))
                .containsText("The shop is busy; admission is paused to protect it. Your place is kept.", WAIT);
        assertThat(page.locator("#wait")).containsText("Not while admission is paused", WAIT);
        Axe.assertClean(page);
        page.context().close();
    }

    @Test
    void aPlannedWindowIsSaidWithItsReasonAndItsEndAndTheReasonStaysText() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).addWaiting(5);
        model.admissionHold(dev.waitroom.contract.queue.AdmissionHold.of(
                dev.waitroom.contract.queue.AdmissionHold.Cause.PLANNED_PAUSE,
                "Seat map <b>update</b><img src=x onerror=alert(1)>",
                Instant.parse("2030-01-01T14:00:00Z")));
        Page page = open(event);
        assertThat(page.locator("#headline")).containsText("Admission is paused as planned", WAIT);
        assertThat(page.locator("#detail")).containsText("Reason: Seat map <b>update</b>", WAIT);
        assertThat(page.locator("#detail")).containsText("Admission resumes at", WAIT);
        assertThat(page.locator("#detail b").count()).isZero();
        assertThat(page.locator("#detail img").count()).isZero();
        page.context().close();
    }

    @Test
    void pausedAndSoldOutAreSaidPlainlyWithoutAnEstimate() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).addWaiting(5);
        model.mode("PAUSED").announcement("Payments are slow; admission resumes shortly.");
        Page page = open(event);
        assertThat(page.locator("#headline")).containsText("Admission is paused", WAIT);
        assertThat(page.locator("#wait")).containsText("Not while admission is paused", WAIT);
        assertThat(page.locator("#announcement")).containsText("Payments are slow", WAIT);
        Axe.assertClean(page);
        page.context().close();
    }

    @Test
    void lostConnectionShowsReconnectingAndKeepsThePlace() {
        String event = newEvent();
        upstreams.queue.event(event).addWaiting(5);
        Page page = open(event);
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        upstreams.queue.unavailable(true);
        try {
            assertThat(page.locator("#connection")).containsText("Reconnecting — your place is kept", WAIT);
        } finally {
            upstreams.queue.unavailable(false);
        }
        assertThat(page.locator("#connection")).isHidden(new LocatorAssertions.IsHiddenOptions().setTimeout(20_000));
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        page.context().close();
    }

    @Test
    void visitorWaitsIsAdmittedHoldsASeatAndPays() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).addWaiting(2);
        Page page = open(event);
        assertThat(page.locator("#ahead")).containsText("2 people", WAIT);
        model.offerNext(3);
        page.waitForURL("**/events/" + event + "/shop-ui", new Page.WaitForURLOptions().setTimeout(20_000));
        assertThat(page.locator("#message")).containsText("seats available", WAIT);
        assertThat(page.locator("#session")).containsText("lasts until", WAIT);
        page.locator("#renew").click();
        assertThat(page.locator("#message")).containsText("Your session now lasts until", WAIT);
        page.reload();
        assertThat(page.locator("#message")).containsText("seats available", WAIT);
        // keyboard only: choose, hold and pay without a pointer
        page.locator("#seat-0").focus();
        page.keyboard().press("Space");
        assertThat(page.getByLabel("Seat A1", new Page.GetByLabelOptions().setExact(false)))
                .isChecked();
        page.keyboard().press("Tab");
        assertThat(page.locator("#hold")).isFocused();
        page.keyboard().press("Enter");
        assertThat(page.locator("#hold-text")).containsText("held for you", WAIT);
        assertThat(page.locator("#pay")).isFocused();
        page.keyboard().press("Enter");
        assertThat(page.locator("#message")).containsText("Payment complete", WAIT);
        page.screenshot(new Page.ScreenshotOptions()
                .setPath(Path.of("target", "shop-page.png"))
                .setFullPage(true));
        Axe.assertClean(page);
        page.context().close();
    }
}
