package dev.waitroom.gateway;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.gateway.testing.Axe;
import dev.waitroom.gateway.testing.BrowserTest;
import dev.waitroom.gateway.testing.BrowserTestChromium;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubCoordinator.ClaimRefusal;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.testsupport.queue.FakeQueueEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The waiting page keeps the sale's published promises (issue 17), in real headless Chromium against the gateway and
 * the stub upstreams: its rules are written from the event's published policy for every pair of two rules' values
 * (each rule's sentence depends on its own value alone, so five pages cover what all sixteen did), the page names the event, "Join the queue again" gives a new place, a paused claim holds the offer and is retried, a
 * sold-out claim shows sold out with no way into the shop, sold-out seat categories and a new sale round are said.
 * Skipped, with the reason printed, where no chromium is installed.
 */
@GatewayIntegrationTest
@BrowserTest
class SaleRulesBrowserTests {

    private static final LocatorAssertions.ContainsTextOptions WAIT =
            new LocatorAssertions.ContainsTextOptions().setTimeout(20_000);

    /**
     * A phrase only the sentence of that rule's value has (docs/design/sale-rules/the-page.md). Keyed by every value of every
     * rule: a value added to the contract without its sentence fails {@link #everyValueOfEveryRuleHasASentence}.
     */
    private static final Map<Enum<?>, String> PHRASES = Map.of(
            PresaleOrdering.RANDOM, "decided by a random draw",
            PresaleOrdering.FIFO, "served in the order people joined",
            ExpiredOfferPolicy.REQUEUE_ONCE, "you go to the back of the queue once",
            ExpiredOfferPolicy.DROP, "your place ends at once",
            AfterPurchase.RELEASE, "your shopping session ends and makes room for the next person",
            AfterPurchase.KEEP, "stays open until its time runs out",
            IdentityScope.BROWSER, "Your place belongs to this browser",
            IdentityScope.ACCOUNT, "Your place belongs to your account");

    @RegisterExtension
    static final BrowserTestChromium chromium = new BrowserTestChromium();

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    /**
     * Five policies in which every value of each rule meets every value of every other rule (a pairwise covering array
     * of the four two-valued rules: rows 0000, 0111, 1011, 1101, 1110), each value at least twice.
     */
    static Stream<Arguments> everyPairOfRuleValues() {
        int[][] rows = {{0, 0, 0, 0}, {0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, 0, 1}, {1, 1, 1, 0}};
        return Stream.of(rows)
                .map(row -> Arguments.of(
                        PresaleOrdering.values()[row[0]],
                        ExpiredOfferPolicy.values()[row[1]],
                        AfterPurchase.values()[row[2]],
                        IdentityScope.values()[row[3]]));
    }

    @Test
    void everyValueOfEveryRuleHasASentence() {
        List<Enum<?>> values = new ArrayList<>();
        values.addAll(EnumSet.allOf(PresaleOrdering.class));
        values.addAll(EnumSet.allOf(ExpiredOfferPolicy.class));
        values.addAll(EnumSet.allOf(AfterPurchase.class));
        values.addAll(EnumSet.allOf(IdentityScope.class));
        assertThat(PHRASES.keySet()).containsExactlyInAnyOrderElementsOf(values);
    }

    @Test
    void theFivePoliciesMeetEveryPairOfRuleValues() {
        List<List<Object>> policies = everyPairOfRuleValues()
                .map(arguments -> List.of(arguments.get()))
                .toList();
        List<Class<? extends Enum<?>>> rules =
                List.of(PresaleOrdering.class, ExpiredOfferPolicy.class, AfterPurchase.class, IdentityScope.class);
        for (int a = 0; a < rules.size(); a++) {
            for (int b = a + 1; b < rules.size(); b++) {
                for (Enum<?> x : rules.get(a).getEnumConstants()) {
                    for (Enum<?> y : rules.get(b).getEnumConstants()) {
                        int i = a;
                        int j = b;
                        assertThat(policies)
                                .as("a policy with %s and %s", x, y)
                                .anyMatch(p -> p.get(i) == x && p.get(j) == y);
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("everyPairOfRuleValues")
    void theRulesAreWrittenFromThePublishedPolicy(
            PresaleOrdering ordering, ExpiredOfferPolicy expired, AfterPurchase after, IdentityScope scope) {
        String event = newEvent();
        String name = "Spring tour " + ordering + " " + expired;
        upstreams
                .queue
                .event(event)
                .name(name)
                .policy(ordering, expired, after, scope)
                .addWaiting(3);
        Page page = open(event);
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(page.locator("#rules li[data-rule=identityScope]")).containsText(PHRASES.get(scope), WAIT);
        assertThat(page.locator("#event-title")).hasText("Waiting room: " + name);
        assertThat(page).hasTitle("Waiting room: " + name);

        assertRule(page, "presaleOrdering", ordering);
        assertRule(page, "expiredOfferPolicy", expired);
        assertRule(page, "afterPurchase", after);
        assertRule(page, "identityScope", scope);
        String shown = page.locator("main").innerText();
        List<Enum<?>> chosen = List.of(ordering, expired, after, scope);
        PHRASES.forEach((value, phrase) -> {
            if (!chosen.contains(value)) {
                assertThat(shown).as("no sentence for %s", value).doesNotContain(phrase);
            }
        });
        if (ordering == PresaleOrdering.FIFO) {
            assertThat(shown)
                    .as("no draw to check")
                    .doesNotContain("HMAC-SHA256")
                    .doesNotContain("Draw seed");
        } else {
            assertThat(shown).contains("HMAC-SHA256").contains("Draw seed");
        }
        Axe.assertClean(page);
        page.context().close();
    }

    @Test
    void theEventIdIsTheTitleWhenTheEventHasNoName() {
        String event = newEvent();
        upstreams.queue.event(event).name(null).addWaiting(1);
        Page page = open(event);
        assertThat(page.locator("#rules li[data-rule=presaleOrdering]").first()).containsText("random draw", WAIT);
        assertThat(page.locator("#event-title")).hasText("Waiting room: " + event);
        assertThat(page).hasTitle("Waiting room: " + event);
        page.context().close();
    }

    @Test
    void joinTheQueueAgainAfterAnExpiredOfferGivesANewPlaceAtTheBack() {
        String event = newEvent();
        FakeQueueEvent model = upstreams
                .queue
                .event(event)
                .policy(PresaleOrdering.RANDOM, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE, IdentityScope.BROWSER)
                .admissionRate(0.01)
                .addWaiting(3);
        Page page = open(event);
        assertThat(page.locator("#ahead")).containsText("3 people", WAIT);
        String receipt = page.locator("#receipt").innerText();
        FakeQueueEntry first = model.entryById(receipt);
        first.expire();
        model.addWaiting(2);

        assertThat(page.locator("#headline")).containsText("Your turn has passed", WAIT);
        int joinsBefore = model.joinsCreated();
        // a reload shows the ended place; only the button takes a new one
        page.reload();
        assertThat(page.locator("#headline")).containsText("Your turn has passed", WAIT);
        assertThat(page.locator("#rejoin-box")).isVisible();
        assertThat(model.joinsCreated()).isEqualTo(joinsBefore);
        page.locator("#rejoin").click();
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(page.locator("#ahead")).containsText("5 people", WAIT);
        String again = page.locator("#receipt").innerText();
        assertThat(again).isNotEqualTo(receipt);
        assertThat(model.entryById(again).state().name()).isEqualTo("WAITING");
        assertThat(model.entryById(again).orderKey()).isGreaterThan(first.orderKey());
        assertThat(first.state().name()).as("the old entry's history is kept").isEqualTo("EXPIRED");
        assertThat(page.locator("#rejoin-box")).isHidden();
        page.context().close();
    }

    @Test
    void afterAPurchaseTheButtonOffersANewPlaceOnlyUnderRelease() {
        for (AfterPurchase after : AfterPurchase.values()) {
            String event = newEvent();
            FakeQueueEvent model = upstreams
                    .queue
                    .event(event)
                    .policy(PresaleOrdering.RANDOM, ExpiredOfferPolicy.REQUEUE_ONCE, after, IdentityScope.BROWSER)
                    .addWaiting(2);
            Page page = open(event);
            assertThat(page.locator("#ahead")).containsText("2 people", WAIT);
            String receipt = page.locator("#receipt").innerText();
            model.entryById(receipt).complete();
            assertThat(page.locator("#headline")).containsText("Your visit to the shop is complete", WAIT);
            if (after == AfterPurchase.RELEASE) {
                assertThat(page.locator("#rejoin-box")).isVisible();
                page.locator("#rejoin").click();
                assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
                assertThat(page.locator("#receipt")).not().hasText(receipt, new LocatorAssertions.HasTextOptions());
            } else {
                assertThat(page.locator("#detail")).containsText("You can close this page", WAIT);
                assertThat(page.locator("#rejoin-box")).isHidden();
            }
            page.context().close();
        }
    }

    @Test
    void aClaimRefusedWhileAdmissionIsPausedHoldsTheOfferAndIsTriedAgain() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event);
        upstreams.coordinator.refuseClaims(event, ClaimRefusal.ADMISSION_PAUSED);
        try {
            Page page = open(event);
            assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
            model.offerNext(1);
            assertThat(page.locator("#detail")).containsText("Your offer is held", WAIT);
            assertThat(page.locator("#headline")).containsText("admission is paused", WAIT);
            assertThat(page.locator("#offer")).isHidden();
            String claims = "/events/" + event + "/admission/claim";
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(upstreams.coordinator.countReceived(claims))
                            .as("the claim is tried again after Retry-After")
                            .isGreaterThanOrEqualTo(3));
            assertThat(page.locator("#detail")).containsText("Your offer is held");
            Axe.assertClean(page);

            upstreams.coordinator.refuseClaims(event, null);
            page.waitForURL("**/events/" + event + "/shop-ui", new Page.WaitForURLOptions().setTimeout(20_000));
            page.context().close();
        } finally {
            upstreams.coordinator.refuseClaims(event, null);
        }
    }

    /**
     * Sold out withdraws the offer and keeps the place (queue transition OFFER_WITHDRAWN); a new round offers the visitor
     * again in their place, and the page takes them into the shop.
     */
    @Test
    void aClaimRefusedAsSoldOutShowsSoldOutWithNoWayIntoTheShopAndANewRoundOffersThePlaceAgain() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).addWaiting(1);
        upstreams.coordinator.refuseClaims(event, ClaimRefusal.SOLD_OUT);
        try {
            Page page = open(event);
            assertThat(page.locator("#ahead")).containsText("1 person", WAIT);
            String receipt = page.locator("#receipt").innerText();
            model.offerNext(2);
            assertThat(page.locator("#headline")).containsText("Tickets are sold out", WAIT);
            assertThat(page.locator("#detail")).containsText("Your offer was withdrawn");
            assertThat(page.locator("#offer")).isHidden();
            assertThat(page.locator("#enter")).isHidden();
            assertThat(page.locator("#wait")).containsText("None: the event is sold out");
            String claims = "/events/" + event + "/admission/claim";
            long claimed = upstreams.coordinator.countReceived(claims);
            model.mode("SOLD_OUT");
            model.entryById(receipt).withdrawOffer(); // the coordinator's outbox, after the mode
            assertThat(page.locator("#detail")).containsText("your place is kept", WAIT);
            assertThat(page.locator("#ahead")).containsText("Not counted while the event is sold out");
            assertThat(upstreams.coordinator.countReceived(claims))
                    .as("a withdrawn offer is not claimed again")
                    .isEqualTo(claimed);
            assertThat(page).hasURL(java.util.regex.Pattern.compile(".*/events/" + event + "$"));
            Axe.assertClean(page);

            upstreams.coordinator.refuseClaims(event, null);
            model.saleGeneration(2).mode("QUEUEING");
            assertThat(page.locator("#round")).containsText("(round 2): seats are on sale again", WAIT);
            assertThat(page.locator("#round")).containsText("Your place in the queue is kept");
            assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
            assertThat(page.locator("#receipt")).hasText(receipt);
            model.offerNext(1);
            page.waitForURL("**/events/" + event + "/shop-ui", new Page.WaitForURLOptions().setTimeout(45_000));
            page.context().close();
        } finally {
            upstreams.coordinator.refuseClaims(event, null);
        }
    }

    @Test
    void whilePausedThePageShowsNoProgress() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(2).addWaiting(40);
        Page page = open(event);
        assertThat(page.locator("#wait")).containsText("estimate", WAIT);
        model.mode("PAUSED");
        assertThat(page.locator("#headline")).containsText("Admission is paused", WAIT);
        assertThat(page.locator("#wait")).hasText("Not while admission is paused");
        assertThat(page.locator("#ahead")).containsText("not moving while admission is paused");
        assertThat(page.locator("#uncertainty")).isVisible();
        page.context().close();
    }

    @Test
    void soldOutSeatCategoriesComeFromThePublicStatusWithoutAskingInventory() {
        String event = newEvent();
        FakeQueueEvent model =
                upstreams.queue.event(event).soldOutCategories(List.of("Floor")).addWaiting(2);
        Page page = open(event);
        assertThat(page.locator("#categories"))
                .containsText("Sold out: Floor. Seats in the other categories are still on sale.", WAIT);
        model.soldOutCategories(List.of("Floor", "Balcony"));
        page.reload();
        assertThat(page.locator("#categories")).containsText("Sold out: Floor, Balcony.", WAIT);
        Axe.assertClean(page);
        assertThat(upstreams.booking.received(r -> r.path().contains(event)))
                .as("no status poll touches inventory")
                .isEmpty();
        page.context().close();
    }

    @Test
    void aNewSaleRoundIsToldAndThePlaceIsKept() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).addWaiting(4);
        Page page = open(event);
        assertThat(page.locator("#ahead")).containsText("4 people", WAIT);
        String receipt = page.locator("#receipt").innerText();
        assertThat(page.locator("#round-box")).isHidden();
        model.mode("SOLD_OUT");
        assertThat(page.locator("#headline")).containsText("Tickets are sold out", WAIT);
        model.saleGeneration(2).mode("QUEUEING");
        assertThat(page.locator("#round")).containsText("A new round of the sale has started (round 2)", WAIT);
        assertThat(page.locator("#round")).containsText("Your place in the queue is kept");
        assertThat(page.locator("#headline")).containsText("Your place is kept", WAIT);
        assertThat(page.locator("#receipt")).hasText(receipt);
        Axe.assertClean(page);
        page.context().close();

        String later = newEvent();
        upstreams.queue.event(later).saleGeneration(3).addWaiting(1);
        Page arriving = open(later);
        assertThat(arriving.locator("#round")).containsText("(round 3)", WAIT);
        arriving.context().close();
    }

    private static void assertRule(Page page, String rule, Enum<?> value) {
        assertThat(page.locator("#rules li[data-rule=" + rule + "]").first()).containsText(PHRASES.get(value), WAIT);
        assertThat(page.locator("#rules li[data-rule=" + rule + "]").first()).hasAttribute("data-value", value.name());
    }

    private String newEvent() {
        return "rules-" + UUID.randomUUID().toString().substring(0, 12);
    }

    private Page open(String event) {
        Page page = chromium.newContext(new Browser.NewContextOptions()).newPage();
        page.navigate("http://localhost:" + port + "/events/" + event);
        return page;
    }
}
