package dev.waitroom.gateway.proofofwork;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.gateway.testing.Axe;
import dev.waitroom.gateway.testing.BrowserTest;
import dev.waitroom.gateway.testing.BrowserTestChromium;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The waiting page in real headless Chromium against the gateway (real Redis) and the stub queue-service: it solves
 * the event's proof-of-work challenge by itself and gets its place, telling screen readers what it is doing; and a
 * join refused with 503 joins-throttled is retried by itself, with the reason said in plain words.
 */
@GatewayIntegrationTest
@BrowserTest
class ProofOfWorkBrowserTests {

    private static final LocatorAssertions.ContainsTextOptions WAIT =
            new LocatorAssertions.ContainsTextOptions().setTimeout(30_000);

    /** Records every text the live region ({@code #live}, aria-live polite) showed, in order. */
    private static final String RECORD_LIVE_REGION = """
            window.__announced = [];
            new MutationObserver(function () {
              var live = document.getElementById('live');
              if (!live) { return; }
              var text = live.textContent.replace(/\\s+/g, ' ').trim();
              if (window.__announced[window.__announced.length - 1] !== text) { window.__announced.push(text); }
            }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
            """;

    private static final AtomicInteger ADDRESSES = new AtomicInteger();

    @RegisterExtension
    static final BrowserTestChromium chromium = new BrowserTestChromium();

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    @Test
    void thePageSolvesTheChallengeItselfAndGetsItsPlace() {
        String event = "pow-page-" + UUID.randomUUID().toString().substring(0, 8);
        upstreams.queue.event(event).addWaiting(3).joinGate(new JoinGate(0, 200_000));
        double accepted = counted("accepted");
        double missing = counted("missing");

        Page page = open(event);

        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(page.locator("#ahead")).containsText("3 people", WAIT);
        assertThat(upstreams.queue.event(event).joinsCreated()).isEqualTo(1);
        assertThat(counted("missing")).isEqualTo(missing + 1);
        assertThat(counted("accepted")).isEqualTo(accepted + 1);
        @SuppressWarnings("unchecked")
        List<String> announced = (List<String>) page.evaluate("window.__announced");
        assertThat(announced)
                .as("what the live region said")
                .anySatisfy(text -> assertThat(text).contains("Checking your browser"));
        assertThat(page.context().cookies())
                .as("no cookie but the gateway's own")
                .allSatisfy(cookie -> assertThat(cookie.name).startsWith("wr_"));
        page.reload(); // a reload solves a new challenge and finds the same place
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(upstreams.queue.event(event).joinsCreated()).isEqualTo(1);
        page.context().close();
    }

    @Test
    void aThrottledJoinIsRetriedByItselfAndTheVisitorIsToldWhy() {
        String event = "pow-busy-" + UUID.randomUUID().toString().substring(0, 8);
        upstreams
                .queue
                .event(event)
                .addWaiting(2)
                .joinGate(new JoinGate(0, 50_000))
                .refuseJoins(3);
        double issued = counted("issued");

        Page page = open(event);

        assertThat(page.locator("#connection")).containsText("Many people are joining at this moment", WAIT);
        assertThat(page.locator("#connection")).containsText("You have not lost anything");
        assertThat(page.locator("#connection")).containsText("tries again by itself");
        Axe.assertClean(page);
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(page.locator("#ahead")).containsText("2 people", WAIT);
        assertThat(page.locator("#connection")).isHidden();
        assertThat(upstreams.queue.event(event).joinsCreated()).isEqualTo(1);
        assertThat(counted("issued"))
                .as("one challenge solved: each throttled join gave its solution back")
                .isEqualTo(issued + 1);
        page.context().close();
    }

    private Page open(String event) {
        Page page = chromium.newPage("198.19.240." + (ADDRESSES.getAndIncrement() % 250 + 1));
        page.addInitScript(RECORD_LIVE_REGION);
        page.navigate("http://localhost:" + port + "/events/" + event);
        return page;
    }

    private double counted(String outcome) {
        return meters.get("waitroom.gateway.proof.of.work")
                .tag("outcome", outcome)
                .counter()
                .count();
    }
}
