package dev.waitroom.booking.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.testsupport.AllAtOnce;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OrderAccessTests extends ShopTestSupport {

    @Test
    void anExpiredSessionCanStillReadItsOrderButNotHoldSeats() {
        String event = newEvent("orderscope", 3);
        TestShopper shopper = shopper(event);
        String holdId = hold(shopper, "A-1").text("holdId");
        String orderId = order(shopper, holdId).text("orderId");
        String expired = expiredTokenOf(shopper);

        Response status = send("GET", "/events/" + event + "/shop/orders/" + orderId, "Bearer " + expired, null);
        assertThat(status.status()).as(status.raw().body()).isEqualTo(200);
        assertThat(status.text("state")).isEqualTo("PENDING_PAYMENT");

        send("POST", "/events/" + event + "/shop/holds", "Bearer " + expired, "{\"seatIds\":[\"A-2\"]}")
                .assertProblem(401, "admission-header-invalid");
        send("POST", "/events/" + event + "/shop/orders", "Bearer " + expired, "{\"holdId\":\"" + holdId + "\"}")
                .assertProblem(401, "admission-header-invalid");
        send("GET", "/events/" + event + "/shop/seats", "Bearer " + expired, null)
                .assertProblem(401, "admission-header-invalid");
        assertThat(seatState(event, "A-2")).isEqualTo("AVAILABLE");
    }

    @Test
    void aTokenOfAnOlderSaleGenerationCanStillReadItsOrderButNotShop() {
        String event = newEvent("ordergen", 3);
        TestShopper shopper = shopper(event);
        String orderId = order(shopper, hold(shopper, "A-1").text("holdId")).text("orderId");
        String newSale = liveToken(ISSUER, event, 2, "s-new", "v-new");
        assertThat(send("GET", "/events/" + event + "/shop/seats", "Bearer " + newSale, null)
                        .status())
                .isEqualTo(200);

        assertThat(shop(shopper, "GET", "/orders/" + orderId, null).status()).isEqualTo(200);
        hold(shopper, "A-2").assertProblem(401, "admission-header-invalid");
    }

    @Test
    void anExpiredTokenOfAnotherSessionOfTheSameVisitorCannotReadTheOrder() {
        String event = newEvent("orderscope2", 2);
        TestShopper shopper = shopper(event);
        String orderId = order(shopper, hold(shopper, "A-1").text("holdId")).text("orderId");
        TestShopper laterSession = new TestShopper(event, "s-" + UUID.randomUUID(), shopper.visitor(), null);
        send("GET", "/events/" + event + "/shop/orders/" + orderId, "Bearer " + expiredTokenOf(laterSession), null)
                .assertProblem(404, "order-not-found");
        // A live token of a later session of the same visitor may read it.
        String live = liveToken(ISSUER, event, 1, laterSession.sessionId(), shopper.visitor());
        assertThat(send("GET", "/events/" + event + "/shop/orders/" + orderId, "Bearer " + live, null)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void anotherShoppersOrderIsNotFound() {
        String event = newEvent("foreignorder", 2);
        TestShopper owner = shopper(event);
        String orderId = order(owner, hold(owner, "A-1").text("holdId")).text("orderId");
        shop(shopper(event), "GET", "/orders/" + orderId, null).assertProblem(404, "order-not-found");
        shop(shopper(event), "GET", "/orders/" + UUID.randomUUID(), null).assertProblem(404, "order-not-found");
        shop(owner, "GET", "/orders/nope", null).assertProblem(400, "malformed-request");
        // The order of one event is not visible under another event's path.
        String other = newEvent("foreignorder-b", 1);
        TestShopper sameVisitorElsewhere = shopper(other);
        shop(sameVisitorElsewhere, "GET", "/orders/" + orderId, null).assertProblem(404, "order-not-found");
    }

    @Test
    void repeatingAnOrderWithTheSameIdempotencyKeyReturnsTheSameOrder() throws Exception {
        String event = newEvent("idem", 3);
        TestShopper shopper = shopper(event);
        String holdId = hold(shopper, "A-1").text("holdId");
        List<Response> responses = AllAtOnce.call(8, () -> order(shopper, holdId, "Idempotency-Key", "key-1"));
        assertThat(responses.stream().filter(r -> r.status() == 201)).hasSize(1);
        assertThat(responses.stream().filter(r -> r.status() == 200)).hasSize(7);
        assertThat(responses.stream().map(r -> r.text("orderId")).distinct()).hasSize(1);
        assertThat(count("SELECT count(*) FROM orders WHERE hold_id = ?::uuid", holdId))
                .isEqualTo(1);
        assertThat(count(
                        "SELECT count(*) FROM payment_attempts p JOIN orders o USING (order_id) "
                                + "WHERE o.hold_id = ?::uuid",
                        holdId))
                .isEqualTo(1);

        // Without a key, ordering the same hold again answers with the order already under way.
        Response again = order(shopper, holdId);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.text("orderId")).isEqualTo(responses.get(0).text("orderId"));

        String otherHold = hold(shopper, "A-2").text("holdId");
        order(shopper, otherHold, "Idempotency-Key", "key-1").assertProblem(422, "idempotency-key-reused");
        order(shopper, otherHold, "Idempotency-Key", "bad key!").assertProblem(400, "malformed-request");
        assertThat(count("SELECT count(*) FROM orders WHERE hold_id = ?::uuid", otherHold))
                .isZero();
    }

    @Test
    void badOrderRequestsAreProblemsThatChangeNothing() {
        String event = newEvent("badorder", 1);
        TestShopper shopper = shopper(event);
        shop(shopper, "POST", "/orders", "{}").assertProblem(400, "malformed-request");
        shop(shopper, "POST", "/orders", "{\"holdId\":\"x\"}").assertProblem(400, "malformed-request");
        shop(shopper, "POST", "/orders", "{\"holdId\":").assertProblem(400, "malformed-request");
        order(shopper, UUID.randomUUID().toString()).assertProblem(404, "hold-not-found");
        assertThat(count("SELECT count(*) FROM orders WHERE event_id = ?", event))
                .isZero();
    }
}
