package dev.waitroom.booking.signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.booking.RecordingCoordinator;
import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.TestSecrets;
import dev.waitroom.booking.sale.Sale;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class SoldOutAndOutboxTests extends ShopTestSupport {

    @Autowired
    Sale sale;

    @AfterEach
    void coordinatorBack() {
        coordinator.unreachable(false);
    }

    private String buy(String event, String seat) {
        Checkout checkout = checkout(event, seat);
        assertThat(pay(checkout, "SUCCEEDED").text("effect")).isEqualTo("PAID");
        return checkout.orderId();
    }

    @Test
    void theLastSeatSoldReportsSoldOutOnce() {
        String event = newEvent("soldout", 2);
        buy(event, "A-1");
        assertThat(count("SELECT count(*) FROM coordinator_outbox WHERE kind = 'SOLD_OUT' AND event_id = ?", event))
                .isZero();
        buy(event, "A-2");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(coordinator.soldOutEvents()).contains(event));
        assertThat(coordinator.soldOutEvents().stream().filter(event::equals)).hasSize(1);
        assertThat(count("SELECT count(*) FROM coordinator_outbox WHERE kind = 'SOLD_OUT' AND event_id = ?", event))
                .isEqualTo(1);
    }

    /**
     * A new round of the sale: seats came back (the inventory grew, as ops do after cancellations), a hold on one of
     * them lapses and the seat is sold to another shopper; the event sells out again and says so a second time, and
     * the sweep adds no third signal for either sell-out.
     */
    @Test
    void anEventThatSellsOutAgainAfterItsSeatsCameBackSignalsAgain() {
        String event = newEvent("soldout-again", 2);
        buy(event, "A-1");
        buy(event, "A-2");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(soldOutSignals(event)).isEqualTo(1));

        Response grown = send(
                "PUT",
                "/admin/events/" + event + "/inventory",
                "Bearer " + TestSecrets.OPS_TOKEN,
                "{\"categories\":[{\"name\":\"A\",\"seats\":3,\"priceCents\":2500}]}");
        assertThat(grown.status()).as(grown.raw().body()).isEqualTo(200);
        Checkout lapsed = checkout(event, "A-3");
        lapse(lapsed.holdId());
        sale.signalSoldOutEvents();
        assertThat(count("SELECT count(*) FROM coordinator_outbox WHERE kind = 'SOLD_OUT' AND event_id = ?", event))
                .as("a lapsed hold's seat is not sold")
                .isEqualTo(1);
        buy(event, "A-3");

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(soldOutSignals(event)).isEqualTo(2));
        sale.signalSoldOutEvents();
        assertThat(count("SELECT count(*) FROM coordinator_outbox WHERE kind = 'SOLD_OUT' AND event_id = ?", event))
                .isEqualTo(2);
        await().during(Duration.ofMillis(1000))
                .atMost(Duration.ofSeconds(3))
                .untilAsserted(() -> assertThat(soldOutSignals(event)).isEqualTo(2));
    }

    /** A sold-out event whose signal row is gone (written before a crash, say) is found by the sweep once. */
    @Test
    void theSweepSignalsASoldOutEventWithoutASignalOnce() {
        String event = newEvent("soldout-sweep", 1);
        buy(event, "A-1");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(soldOutSignals(event)).isEqualTo(1));
        jdbc.sql("DELETE FROM coordinator_outbox WHERE kind = 'SOLD_OUT' AND event_id = :e")
                .param("e", event)
                .update();

        sale.signalSoldOutEvents(); // or the background sweep got there first
        assertThat(count("SELECT count(*) FROM coordinator_outbox WHERE kind = 'SOLD_OUT' AND event_id = ?", event))
                .isEqualTo(1);
        assertThat(count(
                        "SELECT count(*) FROM coordinator_outbox WHERE kind = 'SOLD_OUT' AND event_id = ? "
                                + "AND dedup_key = 'SOLD_OUT:' || event_id || ':1'",
                        event))
                .as("keyed by the seats it sold out with")
                .isEqualTo(1);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(soldOutSignals(event)).isEqualTo(2));
    }

    private long soldOutSignals(String event) {
        return coordinator.soldOutEvents().stream().filter(event::equals).count();
    }

    @Test
    void aSignalTheCoordinatorRefusesIsNotRetriedAndDoesNotBlockOthers() {
        String refusedEvent = newEvent("refused", 2);
        String fineEvent = newEvent("fine", 2);
        coordinator.refuseEvent(refusedEvent);
        String refusedOrder = buy(refusedEvent, "A-1");
        String fineOrder = buy(fineEvent, "A-1");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(coordinator.purchases())
                        .extracting(RecordingCoordinator.PurchaseCompleted::orderId)
                        .contains(UUID.fromString(fineOrder)));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(count(
                                "SELECT count(*) FROM coordinator_outbox WHERE order_id = ?::uuid AND refused_at IS NOT NULL "
                                        + "AND refused_status = 404 AND delivered_at IS NULL",
                                refusedOrder))
                        .isEqualTo(1));
        int attempts = count("SELECT attempts FROM coordinator_outbox WHERE order_id = ?::uuid", refusedOrder);
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(3))
                .untilAsserted(() -> assertThat(
                                count("SELECT attempts FROM coordinator_outbox WHERE order_id = ?::uuid", refusedOrder))
                        .isEqualTo(attempts));
    }

    @Test
    void signalsOwedWhileTheCoordinatorIsDownAreDeliveredOnceItIsBack() {
        String event = newEvent("outage", 3);
        coordinator.unreachable(true);
        String orderId = buy(event, "A-1");
        // Shoppers are not held up: the purchase completed while the coordinator was unreachable.
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(3))
                .untilAsserted(() -> assertThat(count(
                                "SELECT count(*) FROM coordinator_outbox WHERE order_id = ?::uuid AND delivered_at IS NULL",
                                orderId))
                        .isEqualTo(1));
        coordinator.unreachable(false);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(coordinator.purchases())
                        .extracting(RecordingCoordinator.PurchaseCompleted::orderId)
                        .contains(UUID.fromString(orderId)));
        assertThat(coordinator.purchases().stream().filter(p -> p.orderId().equals(UUID.fromString(orderId))))
                .hasSize(1);
    }
}
