package dev.waitroom.booking.payments.simulator;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.orders.OrderId;
import dev.waitroom.booking.orders.PaymentAttemptId;
import dev.waitroom.booking.orders.PaymentRequested;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The fake provider calls the real webhook over HTTP, signed, after its delay. */
class FakePaymentProviderTests extends ShopTestSupport {

    @Autowired
    SecurityProperties security;

    private FakePaymentProvider provider(FakePaymentProviderProperties.Behaviour behaviour) {
        return new FakePaymentProvider(new FakePaymentProviderProperties(behaviour, Duration.ofMillis(200),
                URI.create("http://127.0.0.1:" + port + "/webhooks/payments")), security, json);
    }

    private Response placeOrder(String event) {
        TestShopper shopper = shopper(event);
        Response ordered = order(shopper, hold(shopper, "A-1").text("holdId"));
        assertThat(ordered.status()).isEqualTo(201);
        return ordered;
    }

    private static PaymentRequested requested(Response order) {
        return new PaymentRequested(PaymentAttemptId.parse(order.json().get("payment").get("attemptId").asString()),
                OrderId.parse(order.text("orderId")), order.json().get("amountCents").asLong());
    }

    @Autowired
    PaymentRequests paymentRequests;

    @Test
    void theProviderIsAskedOnceAnOrderCommitsAndNeverForARefusedOrRepeatedOne() {
        String event = newEvent("askprovider", 3);
        Response order = placeOrder(event);
        assertThat(paymentRequests.seen()).contains(requested(order));

        TestShopper shopper = shopper(event);
        String holdId = hold(shopper, "A-2").text("holdId");
        int before = paymentRequests.seen().size();
        Response first = order(shopper, holdId);
        assertThat(first.status()).isEqualTo(201);
        assertThat(order(shopper, holdId).status()).isEqualTo(200);
        assertThat(paymentRequests.seen()).hasSize(before + 1).contains(requested(first));

        String lapsedHold = hold(shopper, "A-3").text("holdId");
        lapse(lapsedHold);
        order(shopper, lapsedHold).assertProblem(409, "hold-not-active");
        assertThat(paymentRequests.seen()).hasSize(before + 1);
        assertThat(count("SELECT count(*) FROM orders WHERE hold_id = ?::uuid", lapsedHold)).isZero();
    }

    @Test
    void aSucceedingProviderCompletesTheOrderThroughTheSignedWebhook() throws Exception {
        String event = newEvent("fakepay", 1);
        Response order = placeOrder(event);
        FakePaymentProvider provider = provider(FakePaymentProviderProperties.Behaviour.SUCCEED);
        try {
            provider.onPaymentRequested(requested(order));
            await().atMost(Duration.ofSeconds(10)).until(() -> "SOLD".equals(seatState(event, "A-1")));
            assertThat(count("SELECT count(*) FROM processed_webhooks WHERE attempt_id = ?::uuid AND effect = 'PAID'",
                    order.json().get("payment").get("attemptId").asString())).isEqualTo(1);
        } finally {
            provider.destroy();
        }
    }

    @Test
    void aFailingProviderFailsThePayment() throws Exception {
        String event = newEvent("fakefail", 1);
        Response order = placeOrder(event);
        FakePaymentProvider provider = provider(FakePaymentProviderProperties.Behaviour.FAIL);
        try {
            provider.onPaymentRequested(requested(order));
            await().atMost(Duration.ofSeconds(10)).until(() -> count(
                    "SELECT count(*) FROM orders WHERE order_id = ?::uuid AND state = 'PAYMENT_FAILED'",
                    order.text("orderId")) == 1);
            assertThat(seatState(event, "A-1")).isEqualTo("HELD");
        } finally {
            provider.destroy();
        }
    }
}
