package dev.waitroom.booking.signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.TestSecrets;
import dev.waitroom.booking.catalogue.SeatConditions;
import dev.waitroom.booking.outbox.CoordinatorOutbox;
import dev.waitroom.booking.outbox.PendingSignal;
import dev.waitroom.booking.outbox.SignalKind;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.SeatCategories;
import dev.waitroom.testsupport.AllAtOnce;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Booking's report of seats per category to the coordinator (docs/design/sale-rules/seat-categories.md): sent when a
 * category runs out of seats to take or has some again, through the outbox, coalesced per event, counted when sent.
 */
class SeatCategoryReportsTests extends ShopTestSupport {

    private static final Duration WITHIN = Duration.ofSeconds(15);

    @Autowired
    private CoordinatorOutbox outbox;

    @Autowired
    private TransactionTemplate transactions;

    @AfterEach
    void coordinatorBack() {
        coordinator.unreachable(false);
    }

    @Test
    void aCategorySellingOutSendsOneReportNamingItWithZero() {
        String event = eventWith(Map.of("A", 2, "B", 3));
        Checkout checkout = checkout(event, "A-1", "A-2");
        assertThat(pay(checkout, "SUCCEEDED").text("effect")).isEqualTo("PAID");

        await().atMost(WITHIN)
                .untilAsserted(() -> assertThat(coordinator.categoryReports(event))
                        .isNotEmpty()
                        .last()
                        .isEqualTo(report("A", 0, "B", 3)));
        // Held and then sold: one change of A (it ran out when held), one report; the sale itself changed nothing.
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(3))
                .untilAsserted(
                        () -> assertThat(coordinator.categoryReports(event)).containsExactly(report("A", 0, "B", 3)));
        assertThat(count("SELECT count(*) FROM coordinator_outbox WHERE kind = 'CATEGORIES' AND event_id = ?", event))
                .isEqualTo(1);
        assertThat(coordinator.soldOutEvents()).doesNotContain(event);
    }

    @Test
    void theLastCategorySellingOutReportsEveryCategoryAtZeroAndTheEventSoldOut() {
        String event = eventWith(Map.of("A", 1, "B", 1));
        assertThat(pay(checkout(event, "A-1"), "SUCCEEDED").text("effect")).isEqualTo("PAID");
        assertThat(pay(checkout(event, "B-1"), "SUCCEEDED").text("effect")).isEqualTo("PAID");

        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(coordinator.soldOutEvents()).containsOnlyOnce(event);
            assertThat(coordinator.categoryReports(event)).last().isEqualTo(report("A", 0, "B", 0));
        });
    }

    @Test
    void aLapsedHoldReturnsItsCategoryAndANewReportSaysSo() {
        String event = eventWith(Map.of("A", 1, "B", 2));
        Response held = hold(shopper(event), "A-1");
        assertThat(held.status()).as(held.raw().body()).isEqualTo(201);
        await().atMost(WITHIN)
                .untilAsserted(
                        () -> assertThat(coordinator.categoryReports(event)).containsExactly(report("A", 0, "B", 2)));

        // No write brings A back: its hold's deadline passes, and the sweep notices.
        lapse(held.text("holdId"));
        await().atMost(WITHIN)
                .untilAsserted(() -> assertThat(coordinator.categoryReports(event))
                        .containsExactly(report("A", 0, "B", 2), report("A", 1, "B", 2)));
    }

    @Test
    void aReleasedHoldReturnsItsCategory() {
        String event = eventWith(Map.of("A", 1));
        TestShopper shopper = shopper(event);
        Response held = hold(shopper, "A-1");
        assertThat(held.status()).as(held.raw().body()).isEqualTo(201);
        await().atMost(WITHIN)
                .untilAsserted(
                        () -> assertThat(coordinator.categoryReports(event)).containsExactly(report("A", 0)));

        assertThat(shop(shopper, "DELETE", "/holds/" + held.text("holdId"), null)
                        .status())
                .isEqualTo(204);
        await().atMost(WITHIN)
                .untilAsserted(() ->
                        assertThat(coordinator.categoryReports(event)).containsExactly(report("A", 0), report("A", 1)));
    }

    @Test
    void aCategoryWithoutSeatsIsReportedSoldOutAndGrowingItBringsItBack() {
        String event = eventWith(Map.of("A", 0, "B", 1));
        await().atMost(WITHIN)
                .untilAsserted(
                        () -> assertThat(coordinator.categoryReports(event)).containsExactly(report("A", 0, "B", 1)));
        define(event, Map.of("A", 2, "B", 1));
        await().atMost(WITHIN)
                .untilAsserted(() ->
                        assertThat(coordinator.categoryReports(event)).last().isEqualTo(report("A", 2, "B", 1)));
    }

    /**
     * Shoppers race for seats of three categories, then pay, release, walk away or let their holds lapse, all at
     * once. Whatever the interleaving, the last report names the categories the database has sold out.
     */
    @Test
    void concurrentHoldsAndSalesEndWithALastReportThatMatchesTheDatabase() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String event = eventWith(Map.of("A", 3, "B", 3, "C", 6));
        List<String> allSeats = new ArrayList<>(seats("A", 1, 3));
        allSeats.addAll(seats("B", 1, 3));
        allSeats.addAll(seats("C", 1, 6));

        List<TestShopper> shoppers = new ArrayList<>();
        List<Callable<Response>> holds = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            List<String> pick = new ArrayList<>(allSeats);
            Collections.shuffle(pick, random);
            List<String> wanted = pick.subList(0, 1 + random.nextInt(2));
            TestShopper shopper = shopper(event);
            shoppers.add(shopper);
            holds.add(() -> hold(shopper, wanted.toArray(String[]::new)));
        }
        List<Response> held = AllAtOnce.call(holds);

        List<Callable<Integer>> after = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
            Response r = held.get(i);
            assertThat(r.status()).as("seed %d: %s", seed, r.raw().body()).isIn(201, 409);
            if (r.status() != 201) {
                continue;
            }
            TestShopper shopper = shoppers.get(i);
            String holdId = r.text("holdId");
            switch (random.nextInt(4)) {
                case 0 ->
                    after.add(() -> {
                        Response ordered = order(shopper, holdId);
                        assertThat(ordered.status())
                                .as("seed %d: %s", seed, ordered.raw().body())
                                .isEqualTo(201);
                        return pay(
                                        new Checkout(
                                                shopper,
                                                holdId,
                                                ordered.text("orderId"),
                                                ordered.json()
                                                        .get("payment")
                                                        .get("attemptId")
                                                        .asString(),
                                                ordered.json()
                                                        .get("amountCents")
                                                        .asLong()),
                                        "SUCCEEDED")
                                .status();
                    });
                case 1 ->
                    after.add(() ->
                            shop(shopper, "DELETE", "/holds/" + holdId, null).status());
                case 2 ->
                    after.add(() -> {
                        lapse(holdId);
                        return 204;
                    });
                default -> {
                    // walks away: the hold stays until its deadline
                }
            }
        }
        List<Integer> outcomes = AllAtOnce.call(after);
        assertThat(outcomes).as("seed %d", seed).allMatch(status -> status == 200 || status == 204);

        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(count(
                            "SELECT count(*) FROM coordinator_outbox WHERE kind = 'CATEGORIES' AND event_id = ? "
                                    + "AND delivered_at IS NULL",
                            event))
                    .as("seed %d: report owed", seed)
                    .isZero();
            List<SeatCategories> reports = coordinator.categoryReports(event);
            if (reports.isEmpty()) {
                // No category ever ran out (the shuffle can leave a seat of each unheld): nothing was owed, and
                // the coordinator's picture (nothing sold out) is still the database's.
                assertThat(soldOutInDatabase(event)).as("seed %d", seed).isEmpty();
                return;
            }
            SeatCategories last = reports.get(reports.size() - 1);
            assertThat(last.categories())
                    .extracting(SeatCategories.Category::name)
                    .containsExactly("A", "B", "C");
            assertThat(last.soldOut()).as("seed %d", seed).isEqualTo(soldOutInDatabase(event));
        });
    }

    @Test
    void whileTheCoordinatorIsDownReportsWaitAndTheLatestStateArrivesOnceItIsBack() {
        String event = eventWith(Map.of("A", 1, "B", 2));
        coordinator.unreachable(true);
        TestShopper first = shopper(event);
        Response held = hold(first, "A-1");
        assertThat(held.status()).isEqualTo(201);
        assertThat(shop(first, "DELETE", "/holds/" + held.text("holdId"), null).status())
                .isEqualTo(204);
        assertThat(hold(shopper(event), "A-1", "B-1").status()).isEqualTo(201);
        // Shoppers were not held up; the changes wait in one owed row, re-armed by each of them.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(coordinator.categoryReports(event)).isEmpty();
            assertThat(count(
                            "SELECT count(*) FROM coordinator_outbox WHERE kind = 'CATEGORIES' AND event_id = ? "
                                    + "AND delivered_at IS NULL AND revision = 2",
                            event))
                    .isEqualTo(1);
        });

        coordinator.unreachable(false);
        await().atMost(WITHIN)
                .untilAsserted(
                        () -> assertThat(coordinator.categoryReports(event)).containsExactly(report("A", 0, "B", 1)));
    }

    @Test
    void aReportReArmedWhileInFlightStaysOwed() {
        String event = eventWith(Map.of("A", 1));
        EventId id = EventId.of(event);
        // The ticker does not read the outbox while the coordinator is unreachable: this test plays the ticker.
        coordinator.unreachable(true);
        transactions.executeWithoutResult(t -> outbox.categoriesChanged(id));
        PendingSignal read = owedReport(event);

        transactions.executeWithoutResult(t -> outbox.categoriesChanged(id));
        assertThat(outbox.delivered(read)).isFalse();
        PendingSignal again = owedReport(event);
        assertThat(again.id()).isEqualTo(read.id());
        assertThat(again.revision()).isEqualTo(read.revision() + 1);
        assertThat(outbox.delivered(again)).isTrue();
        assertThat(outbox.pending(1000))
                .noneMatch(s ->
                        s.kind() == SignalKind.CATEGORIES && s.eventId().value().equals(event));
    }

    private PendingSignal owedReport(String event) {
        return outbox.pending(1000).stream()
                .filter(s ->
                        s.kind() == SignalKind.CATEGORIES && s.eventId().value().equals(event))
                .findFirst()
                .orElseThrow();
    }

    private List<String> soldOutInDatabase(String event) {
        return jdbc.sql("SELECT c.name FROM seat_categories c WHERE c.event_id = :e AND NOT EXISTS (SELECT 1 FROM"
                        + " seats s WHERE s.event_id = c.event_id AND s.category = c.name AND "
                        + SeatConditions.TAKEABLE + ") ORDER BY c.name")
                .param("e", event)
                .query(String.class)
                .list();
    }

    private String eventWith(Map<String, Integer> categories) {
        String event = newEventId("categories");
        define(event, categories);
        return event;
    }

    private void define(String event, Map<String, Integer> categories) {
        String body = categories.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(c -> "{\"name\":\"" + c.getKey() + "\",\"seats\":" + c.getValue() + ",\"priceCents\":1000}")
                .collect(Collectors.joining(",", "{\"categories\":[", "]}"));
        Response defined =
                send("PUT", "/admin/events/" + event + "/inventory", "Bearer " + TestSecrets.OPS_TOKEN, body);
        assertThat(defined.status()).as(defined.raw().body()).isEqualTo(200);
    }

    private static SeatCategories report(Object... nameThenAvailable) {
        List<SeatCategories.Category> categories = new ArrayList<>();
        for (int i = 0; i < nameThenAvailable.length; i += 2) {
            categories.add(new SeatCategories.Category(
                    (String) nameThenAvailable[i], ((Integer) nameThenAvailable[i + 1]).longValue()));
        }
        return new SeatCategories(categories);
    }
}
