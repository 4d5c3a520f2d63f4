package dev.waitroom.booking.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.booking.RecordingCoordinator;
import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.testsupport.AllAtOnce;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PaymentWebhookTests extends ShopTestSupport {

    @Test
    void aSuccessfulPaymentSellsTheSeatsAndReleasesTheSession() {
        String event = newEvent("paid", 3);
        Checkout checkout = checkout(event, "A-1", "A-2");
        Response applied =
                webhook("wh-" + UUID.randomUUID(), checkout.attemptId(), "SUCCEEDED", checkout.amountCents());
        assertThat(applied.status()).as(applied.raw().body()).isEqualTo(200);
        assertThat(applied.text("effect")).isEqualTo("PAID");

        Response order = shop(checkout.shopper(), "GET", "/orders/" + checkout.orderId(), null);
        assertThat(order.text("state")).isEqualTo("PAID");
        assertThat(order.json().get("payment").get("state").asString()).isEqualTo("SUCCEEDED");
        assertThat(seatRow(event, "A-1"))
                .containsEntry("state", "SOLD")
                .containsEntry("order_id", UUID.fromString(checkout.orderId()));
        assertThat(count("SELECT count(*) FROM sold_seats WHERE event_id = ?", event))
                .isEqualTo(2);
        assertThat(count(
                        "SELECT count(*) FROM holds WHERE hold_id = ?::uuid AND state = 'CONVERTED'",
                        checkout.holdId()))
                .isEqualTo(1);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(coordinator.purchases())
                        .contains(new RecordingCoordinator.PurchaseCompleted(
                                event, checkout.shopper().sessionId(), UUID.fromString(checkout.orderId()))));
    }

    @Test
    void aWebhookReplayedTenTimesAtOnceHasOneEffect() throws Exception {
        String event = newEvent("replay", 2);
        Checkout checkout = checkout(event, "A-1");
        String webhookId = "wh-" + UUID.randomUUID();
        List<Response> responses =
                AllAtOnce.call(10, () -> webhook(webhookId, checkout.attemptId(), "SUCCEEDED", checkout.amountCents()));
        assertThat(responses).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(responses.stream().filter(r -> !r.json().get("duplicate").asBoolean()))
                .hasSize(1);
        assertThat(responses.stream().filter(r -> r.json().get("duplicate").asBoolean()))
                .hasSize(9);
        // A different webhook id for the same, already decided, attempt changes nothing either.
        assertThat(webhook("wh-" + UUID.randomUUID(), checkout.attemptId(), "FAILED", checkout.amountCents())
                        .text("effect"))
                .isEqualTo("NONE");

        assertThat(count("SELECT count(*) FROM sold_seats WHERE event_id = ?", event))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM processed_webhooks WHERE webhook_id = ?", webhookId))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM coordinator_outbox WHERE order_id = ?::uuid", checkout.orderId()))
                .isEqualTo(1);
        assertThat(shop(checkout.shopper(), "GET", "/orders/" + checkout.orderId(), null)
                        .text("state"))
                .isEqualTo("PAID");
    }

    @Test
    void forgedOrMissingSignaturesAreRefusedWith401AndChangeNothing() {
        String event = newEvent("forged", 2);
        Checkout checkout = checkout(event, "A-1");
        String body = "{\"webhookId\":\"wh-forged\",\"paymentAttemptId\":\"" + checkout.attemptId()
                + "\",\"outcome\":\"SUCCEEDED\",\"amountCents\":" + checkout.amountCents() + "}";
        byte[] otherKey = new byte[32];
        new java.security.SecureRandom().nextBytes(otherKey);
        signedWebhook(body, WebhookSignature.of(otherKey).sign(body.getBytes(StandardCharsets.UTF_8)))
                .assertProblem(401, "webhook-signature-invalid");
        signedWebhook(body, null).assertProblem(401, "webhook-signature-invalid");
        signedWebhook(body, "sha256=zz").assertProblem(401, "webhook-signature-invalid");
        // Signed correctly, then altered: the signature covers the raw body.
        String signature = WebhookSignature.of(dev.waitroom.booking.TestSecrets.WEBHOOK_KEY)
                .sign(body.getBytes(StandardCharsets.UTF_8));
        signedWebhook(body.replace("SUCCEEDED", "FAILED"), signature).assertProblem(401, "webhook-signature-invalid");

        assertThat(seatState(event, "A-1")).isEqualTo("HELD");
        assertThat(count("SELECT count(*) FROM processed_webhooks WHERE webhook_id = 'wh-forged'"))
                .isZero();
        assertThat(shop(checkout.shopper(), "GET", "/orders/" + checkout.orderId(), null)
                        .text("state"))
                .isEqualTo("PENDING_PAYMENT");
    }

    @Test
    void signedButInvalidWebhooksAreProblemsThatChangeNothing() {
        String event = newEvent("badwebhook", 2);
        Checkout checkout = checkout(event, "A-1");
        webhook("wh-" + UUID.randomUUID(), checkout.attemptId(), "SUCCEEDED", checkout.amountCents() + 1)
                .assertProblem(422, "webhook-amount-mismatch");
        webhook("wh-" + UUID.randomUUID(), UUID.randomUUID().toString(), "SUCCEEDED", 1)
                .assertProblem(422, "webhook-unknown-payment");
        webhook("wh-" + UUID.randomUUID(), checkout.attemptId(), "MAYBE", checkout.amountCents())
                .assertProblem(400, "malformed-request");
        webhook("bad id!", checkout.attemptId(), "SUCCEEDED", checkout.amountCents())
                .assertProblem(400, "malformed-request");
        String truncated = "{\"webhookId\":";
        signedWebhook(
                        truncated,
                        WebhookSignature.of(dev.waitroom.booking.TestSecrets.WEBHOOK_KEY)
                                .sign(truncated.getBytes(StandardCharsets.UTF_8)))
                .assertProblem(400, "malformed-request");
        assertThat(seatState(event, "A-1")).isEqualTo("HELD");
        assertThat(count("SELECT count(*) FROM processed_webhooks WHERE attempt_id = ?::uuid", checkout.attemptId()))
                .isZero();
    }

    @Test
    void aFailedPaymentLeavesTheHoldSoTheShopperCanTryAgain() {
        String event = newEvent("failed", 2);
        Checkout checkout = checkout(event, "A-1");
        assertThat(webhook("wh-" + UUID.randomUUID(), checkout.attemptId(), "FAILED", checkout.amountCents())
                        .text("effect"))
                .isEqualTo("PAYMENT_FAILED");
        assertThat(seatState(event, "A-1")).isEqualTo("HELD");
        Response retry = order(checkout.shopper(), checkout.holdId());
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.text("orderId")).isNotEqualTo(checkout.orderId());
        assertThat(webhook(
                                "wh-" + UUID.randomUUID(),
                                retry.json().get("payment").get("attemptId").asString(),
                                "SUCCEEDED",
                                checkout.amountCents())
                        .text("effect"))
                .isEqualTo("PAID");
        assertThat(seatState(event, "A-1")).isEqualTo("SOLD");
    }

    @Test
    void paymentAfterTheHoldLapsedAndTheSeatWentElsewhereIsVoidedAndRefunded() {
        String event = newEvent("void", 1);
        Checkout late = checkout(event, "A-1");
        lapse(late.holdId());
        // Another shopper takes the seat (lazy expiry) and buys it.
        Checkout winner = checkout(event, "A-1");
        assertThat(webhook("wh-" + UUID.randomUUID(), winner.attemptId(), "SUCCEEDED", winner.amountCents())
                        .text("effect"))
                .isEqualTo("PAID");

        Response voided = webhook("wh-" + UUID.randomUUID(), late.attemptId(), "SUCCEEDED", late.amountCents());
        assertThat(voided.text("effect")).isEqualTo("VOIDED");

        Response order = shop(late.shopper(), "GET", "/orders/" + late.orderId(), null);
        assertThat(order.text("state")).isEqualTo("VOIDED");
        assertThat(order.json().get("refund").get("amountCents").asLong()).isEqualTo(late.amountCents());
        assertThat(count("SELECT count(*) FROM sold_seats WHERE event_id = ? AND seat_id = 'A-1'", event))
                .isEqualTo(1);
        assertThat(seatRow(event, "A-1")).containsEntry("order_id", UUID.fromString(winner.orderId()));
        assertThat(count("SELECT count(*) FROM refunds WHERE order_id = ?::uuid", late.orderId()))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM coordinator_outbox WHERE order_id = ?::uuid", late.orderId()))
                .isZero();
    }

    @Test
    void paymentAfterTheHoldLapsedWhileAnotherShopperStillHoldsTheSeatIsVoided() {
        String event = newEvent("voidheld", 1);
        Checkout late = checkout(event, "A-1");
        lapse(late.holdId());
        String otherHold = hold(shopper(event), "A-1").text("holdId");

        assertThat(webhook("wh-" + UUID.randomUUID(), late.attemptId(), "SUCCEEDED", late.amountCents())
                        .text("effect"))
                .isEqualTo("VOIDED");
        assertThat(seatRow(event, "A-1"))
                .containsEntry("state", "HELD")
                .containsEntry("hold_id", UUID.fromString(otherHold));
        assertThat(count("SELECT count(*) FROM sold_seats WHERE event_id = ?", event))
                .isZero();
    }

    @Test
    void paymentAfterTheHoldLapsedWithTheSeatStillFreeSellsIt() {
        String event = newEvent("latefree", 2);
        Checkout late = checkout(event, "A-1");
        lapse(late.holdId());
        await().atMost(Duration.ofSeconds(10)).until(() -> "AVAILABLE".equals(seatState(event, "A-1")));

        assertThat(webhook("wh-" + UUID.randomUUID(), late.attemptId(), "SUCCEEDED", late.amountCents())
                        .text("effect"))
                .isEqualTo("PAID");
        assertThat(seatRow(event, "A-1"))
                .containsEntry("state", "SOLD")
                .containsEntry("order_id", UUID.fromString(late.orderId()));
    }

    @Test
    void anOrderWithAPaymentUnderWayBlocksReleasingItsHold() {
        String event = newEvent("nobackout", 1);
        Checkout checkout = checkout(event, "A-1");
        shop(checkout.shopper(), "DELETE", "/holds/" + checkout.holdId(), null).assertProblem(409, "hold-has-order");
        assertThat(seatState(event, "A-1")).isEqualTo("HELD");
    }
}
