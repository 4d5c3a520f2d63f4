package dev.waitroom.booking.payments.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.orders.OrderId;
import dev.waitroom.booking.orders.PaymentAttemptId;
import dev.waitroom.booking.orders.PaymentRequested;
import dev.waitroom.contract.Headers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The fake provider calls the real webhook over HTTP, signed, after its delay. */
class FakePaymentProviderTests extends ShopTestSupport {

    @Autowired
    SecurityProperties security;

    private FakePaymentProvider provider(FakePaymentProviderProperties.Behaviour behaviour) {
        return new FakePaymentProvider(
                new FakePaymentProviderProperties(
                        behaviour,
                        Duration.ofMillis(200),
                        URI.create("http://127.0.0.1:" + port + "/webhooks/payments")),
                security,
                json);
    }

    private static PaymentRequested requested(Checkout checkout) {
        return new PaymentRequested(
                PaymentAttemptId.parse(checkout.attemptId()),
                OrderId.parse(checkout.orderId()),
                checkout.amountCents());
    }

    private static PaymentRequested requested(Response order) {
        return new PaymentRequested(
                PaymentAttemptId.parse(
                        order.json().get("payment").get("attemptId").asString()),
                OrderId.parse(order.text("orderId")),
                order.json().get("amountCents").asLong());
    }

    /** The provider with this behaviour is asked for the checkout's payment; {@code outcome} awaits the result. */
    private void provide(FakePaymentProviderProperties.Behaviour behaviour, Checkout checkout, Runnable outcome) {
        FakePaymentProvider provider = provider(behaviour);
        try {
            provider.onPaymentRequested(requested(checkout));
            outcome.run();
        } finally {
            provider.destroy();
        }
    }

    @Autowired
    PaymentRequests paymentRequests;

    /** The shop page reads it from the seat listing and says plainly that payments are simulated. */
    @Test
    void theSeatListingSaysPaymentsAreSimulated() {
        String event = newEvent("simulatedpay", 1);
        Response seats = shop(shopper(event), "GET", "/seats", null);
        assertThat(seats.status()).isEqualTo(200);
        assertThat(seats.json().get("paymentsSimulated").asBoolean()).isTrue();
    }

    @Test
    void theProviderIsAskedOnceAnOrderCommitsAndNeverForARefusedOrRepeatedOne() {
        String event = newEvent("askprovider", 3);
        Checkout ordered = checkout(event, "A-1");
        assertThat(paymentRequests.seen()).contains(requested(ordered));

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
        assertThat(count("SELECT count(*) FROM orders WHERE hold_id = ?::uuid", lapsedHold))
                .isZero();
    }

    @Test
    void aSucceedingProviderCompletesTheOrderThroughTheSignedWebhook() {
        String event = newEvent("fakepay", 1);
        Checkout checkout = checkout(event, "A-1");
        provide(FakePaymentProviderProperties.Behaviour.SUCCEED, checkout, () -> {
            await().atMost(Duration.ofSeconds(10)).until(() -> "SOLD".equals(seatState(event, "A-1")));
            assertThat(count(
                            "SELECT count(*) FROM processed_webhooks WHERE attempt_id = ?::uuid AND effect = 'PAID'",
                            checkout.attemptId()))
                    .isEqualTo(1);
        });
    }

    @Test
    void aFailingProviderFailsThePayment() {
        String event = newEvent("fakefail", 1);
        Checkout checkout = checkout(event, "A-1");
        provide(FakePaymentProviderProperties.Behaviour.FAIL, checkout, () -> {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> count(
                                    "SELECT count(*) FROM orders WHERE order_id = ?::uuid AND state = 'PAYMENT_FAILED'",
                                    checkout.orderId())
                            == 1);
            assertThat(seatState(event, "A-1")).isEqualTo("HELD");
        });
    }

    /**
     * The route to the webhook goes through the gateway; a gateway down for longer than a few calls (killed and
     * restarting: chaos run seed 31) delays the payment, and the order is paid once the route is back.
     */
    @Test
    void aWebhookRouteDownForManyCallsStillPaysTheOrderOnceItIsBack() throws IOException {
        String event = newEvent("fakeoutage", 1);
        Checkout checkout = checkout(event, "A-1");
        AtomicInteger calls = new AtomicInteger();
        HttpClient relay = HttpClient.newHttpClient();
        HttpServer route = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        route.createContext("/webhooks/payments", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            int status = 503;
            if (calls.incrementAndGet() > 6) {
                try {
                    status = relay.send(
                                    HttpRequest.newBuilder(
                                                    URI.create("http://127.0.0.1:" + port + "/webhooks/payments"))
                                            .header("Content-Type", "application/json")
                                            .header(
                                                    Headers.PAYMENT_SIGNATURE,
                                                    exchange.getRequestHeaders().getFirst(Headers.PAYMENT_SIGNATURE))
                                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        route.start();
        FakePaymentProvider provider = new FakePaymentProvider(
                new FakePaymentProviderProperties(
                        FakePaymentProviderProperties.Behaviour.SUCCEED,
                        Duration.ofMillis(100),
                        URI.create("http://127.0.0.1:" + route.getAddress().getPort() + "/webhooks/payments")),
                security,
                json,
                Duration.ofMillis(20));
        try {
            provider.onPaymentRequested(requested(checkout));
            await().atMost(Duration.ofSeconds(20)).until(() -> "SOLD".equals(seatState(event, "A-1")));
            assertThat(calls).hasValue(7);
        } finally {
            provider.destroy();
            route.stop(0);
        }
    }

    @Test
    void retriesBackOffToFiveSecondsWithinTheRetryWindow() {
        assertThat(FakePaymentProvider.backoff(Duration.ofSeconds(1), 1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(FakePaymentProvider.backoff(Duration.ofSeconds(1), 3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(FakePaymentProvider.backoff(Duration.ofSeconds(1), 4)).isEqualTo(Duration.ofSeconds(5));
        assertThat(FakePaymentProvider.backoff(Duration.ofSeconds(1), 40)).isEqualTo(Duration.ofSeconds(5));
        assertThat(FakePaymentProvider.GIVE_UP_AFTER).isGreaterThan(Duration.ofMinutes(3));
    }
}
