package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Seeded random shop sessions (holds, releases, orders, lapses, paid / failed / replayed webhooks) on a few seats,
 * with the inventory invariants checked after every step. A failure prints the seed; rerun with it to replay.
 */
class ShopInvariantTests extends ShopTestSupport {

    private record Placed(TestShopper shopper, String holdId, String orderId, String attemptId, long amount) {}

    @Test
    void randomShoppingNeverSellsASeatTwice() {
        long seed = Long.getLong("shop.seed", System.nanoTime());
        Random random = new Random(seed);
        String event = newEvent("invariant", 6);
        List<TestShopper> shoppers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            shoppers.add(shopper(event));
        }
        List<String> holds = new ArrayList<>();
        List<TestShopper> holders = new ArrayList<>();
        List<Placed> orders = new ArrayList<>();
        List<String> webhookIds = new ArrayList<>();
        for (int step = 0; step < 120; step++) {
            String what;
            int action = random.nextInt(7);
            if (action <= 1 || holds.isEmpty()) {
                TestShopper shopper = shoppers.get(random.nextInt(shoppers.size()));
                String[] seats = {"A-" + (1 + random.nextInt(6)), "A-" + (1 + random.nextInt(6))};
                Response r = hold(shopper, seats);
                what = "hold " + String.join(",", seats) + " -> " + r.status();
                assertThat(r.status())
                        .as("seed %d step %d %s", seed, step, what)
                        .isIn(201, 409);
                if (r.status() == 201) {
                    holds.add(r.text("holdId"));
                    holders.add(shopper);
                }
            } else if (action == 2) {
                int i = random.nextInt(holds.size());
                Response r = shop(holders.get(i), "DELETE", "/holds/" + holds.get(i), null);
                what = "release -> " + r.status();
                assertThat(r.status())
                        .as("seed %d step %d %s", seed, step, what)
                        .isIn(204, 409);
            } else if (action == 3) {
                int i = random.nextInt(holds.size());
                Response r = order(holders.get(i), holds.get(i));
                what = "order -> " + r.status();
                assertThat(r.status())
                        .as("seed %d step %d %s", seed, step, what)
                        .isIn(200, 201, 409);
                if (r.status() == 201) {
                    orders.add(new Placed(
                            holders.get(i),
                            holds.get(i),
                            r.text("orderId"),
                            r.json().get("payment").get("attemptId").asString(),
                            r.json().get("amountCents").asLong()));
                }
            } else if (action == 4) {
                lapse(holds.get(random.nextInt(holds.size())));
                what = "lapse";
            } else if (orders.isEmpty()) {
                what = "nothing";
            } else {
                Placed placed = orders.get(random.nextInt(orders.size()));
                boolean replay = !webhookIds.isEmpty() && random.nextInt(4) == 0;
                String webhookId =
                        replay ? webhookIds.get(random.nextInt(webhookIds.size())) : "wh-" + UUID.randomUUID();
                webhookIds.add(webhookId);
                String outcome = random.nextInt(4) == 0 ? "FAILED" : "SUCCEEDED";
                Response r = webhook(webhookId, placed.attemptId(), outcome, placed.amount());
                what = "webhook " + outcome + (replay ? " (replayed id)" : "") + " -> " + r.status();
                assertThat(r.status())
                        .as("seed %d step %d %s: %s", seed, step, what, r.raw().body())
                        .isIn(200, 422);
            }
            checkInvariants(event, "seed " + seed + " step " + step + " " + what);
        }
    }

    /** A lapsed hold's late payment races a new hold for the same seat: exactly one of them gets it. */
    @Test
    void aLatePaymentAndANewHoldRacingForASeatNeverBothWin() {
        for (int round = 0; round < 15; round++) {
            String event = newEvent("race-late", 1);
            TestShopper late = shopper(event);
            String holdId = hold(late, "A-1").text("holdId");
            Response order = order(late, holdId);
            lapse(holdId);
            TestShopper newcomer = shopper(event);
            CompletableFuture<Response> pay = CompletableFuture.supplyAsync(() -> webhook(
                    "wh-" + UUID.randomUUID(),
                    order.json().get("payment").get("attemptId").asString(),
                    "SUCCEEDED",
                    order.json().get("amountCents").asLong()));
            CompletableFuture<Response> grab = CompletableFuture.supplyAsync(() -> hold(newcomer, "A-1"));
            String effect = pay.join().text("effect");
            int grabbed = grab.join().status();
            assertThat((effect.equals("PAID") ? 1 : 0) + (grabbed == 201 ? 1 : 0))
                    .as("round %d: %s / %d", round, effect, grabbed)
                    .isEqualTo(1);
            assertThat(effect).isIn("PAID", "VOIDED");
            checkInvariants(event, "round " + round);
        }
    }

    private void checkInvariants(String event, String context) {
        // Every SOLD seat has exactly one sale, to a PAID order, and no seat has a sale without being SOLD.
        assertThat(count(
                        "SELECT count(*) FROM seats s WHERE s.event_id = ? AND s.state = 'SOLD' AND NOT EXISTS "
                                + "(SELECT 1 FROM sold_seats ss JOIN orders o USING (order_id) WHERE ss.event_id = s.event_id "
                                + "AND ss.seat_id = s.seat_id AND ss.order_id = s.order_id AND o.state = 'PAID')",
                        event))
                .as(context)
                .isZero();
        assertThat(count("SELECT count(*) FROM sold_seats WHERE event_id = ?", event))
                .as(context)
                .isEqualTo(count("SELECT count(*) FROM seats WHERE event_id = ? AND state = 'SOLD'", event));
        // A PAID order owns every seat of its hold; a VOIDED order owns none and has its refund.
        assertThat(count(
                        "SELECT count(*) FROM orders o JOIN hold_seats hs USING (hold_id) WHERE o.event_id = ? "
                                + "AND o.state = 'PAID' AND NOT EXISTS (SELECT 1 FROM sold_seats ss WHERE ss.event_id = hs.event_id "
                                + "AND ss.seat_id = hs.seat_id AND ss.order_id = o.order_id)",
                        event))
                .as(context)
                .isZero();
        assertThat(count(
                        "SELECT count(*) FROM orders o WHERE o.event_id = ? AND o.state = 'VOIDED' AND ("
                                + "EXISTS (SELECT 1 FROM sold_seats ss WHERE ss.order_id = o.order_id) "
                                + "OR NOT EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = o.order_id))",
                        event))
                .as(context)
                .isZero();
        // A HELD seat points at a hold that lists it; no seat is in two live (unexpired, ACTIVE) holds.
        assertThat(count(
                        "SELECT count(*) FROM seats s WHERE s.event_id = ? AND s.state = 'HELD' AND NOT EXISTS "
                                + "(SELECT 1 FROM hold_seats hs WHERE hs.hold_id = s.hold_id AND hs.seat_id = s.seat_id)",
                        event))
                .as(context)
                .isZero();
        assertThat(count(
                        "SELECT count(*) FROM (SELECT hs.seat_id FROM hold_seats hs JOIN holds h USING (hold_id) "
                                + "WHERE h.event_id = ? AND h.state = 'ACTIVE' AND h.expires_at > now() "
                                + "GROUP BY hs.seat_id HAVING count(*) > 1) twice",
                        event))
                .as(context)
                .isZero();
        // One payment outcome per attempt: a decided attempt has exactly one applied webhook.
        assertThat(count(
                        "SELECT count(*) FROM payment_attempts p JOIN orders o USING (order_id) WHERE o.event_id = ? "
                                + "AND p.state <> 'PENDING' AND (SELECT count(*) FROM processed_webhooks w WHERE w.attempt_id = p.attempt_id "
                                + "AND w.effect <> 'NONE') <> 1",
                        event))
                .as(context)
                .isZero();
    }
}
