package dev.waitroom.booking.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.TestSecrets;
import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.ShopAssertion;
import dev.waitroom.tokens.ShopAssertionCodec;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Booking protects itself (docs/security/booking.md): every route but the payment webhook needs the internal
 * credential, and a shop request needs the gateway's assertion for exactly this request and session besides the
 * admission token, so a token whose session has ended buys nothing when booking is reached directly.
 */
class GatewayAssertionTests extends ShopTestSupport {

    private static final String HOLD_A1 = "{\"seatIds\":[\"A-1\"]}";

    /** The internal credential and an assertion made by the caller, as a request that skips the gateway would. */
    private Response direct(String method, String path, TestShopper shopper, String body, String assertion) {
        return assertion == null
                ? sendDirect(
                        method, path, "Bearer " + shopper.token(), body, Headers.INTERNAL, TestSecrets.INTERNAL_TOKEN)
                : sendDirect(
                        method,
                        path,
                        "Bearer " + shopper.token(),
                        body,
                        Headers.INTERNAL,
                        TestSecrets.INTERNAL_TOKEN,
                        Headers.ASSERTION,
                        assertion);
    }

    private static ShopAssertion assertion(TestShopper shopper, String method, String path, Instant now) {
        return ShopAssertion.forRequest(
                shopper.eventId(),
                shopper.sessionId(),
                shopper.visitor(),
                1,
                ShopAssertion.Scope.SHOPPING,
                method,
                path,
                now);
    }

    private static String holds(String event) {
        return "/events/" + event + "/shop/holds";
    }

    @Test
    void everyRouteButThePaymentWebhookRefusesACallWithoutTheInternalCredential() {
        String event = newEvent("nocredential", 2);
        TestShopper shopper = shopper(event);
        String seats = "/events/" + event + "/shop/seats";
        // even a valid token with a valid assertion: the credential comes first
        String[] assertionOnly = {Headers.ASSERTION, signAssertion(assertion(shopper, "GET", seats, Instant.now()))};
        sendDirect("GET", seats, "Bearer " + shopper.token(), null, assertionOnly)
                .assertProblem(403, "internal-credential-required");
        sendDirect("POST", holds(event), "Bearer " + shopper.token(), HOLD_A1)
                .assertProblem(403, "internal-credential-required");
        sendDirect("GET", seats, "Bearer " + shopper.token(), null, Headers.INTERNAL, "wrong-credential-0123456789")
                .assertProblem(403, "internal-credential-required");
        String ops = "Bearer " + TestSecrets.OPS_TOKEN;
        sendDirect("GET", "/admin/events/" + event + "/inventory", ops, null)
                .assertProblem(403, "internal-credential-required");
        sendDirect("PUT", "/admin/events/" + event + "/inventory", ops, "{\"categories\":[]}")
                .assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/admin/booking/faults", ops, null).assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/v3/api-docs", null, null).assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/anything-else", null, null).assertProblem(403, "internal-credential-required");
        // path tricks are the same path to the credential check
        sendDirect("GET", "/events/" + event + "/shop;x=1/seats", "Bearer " + shopper.token(), null)
                .assertProblem(403, "internal-credential-required");
        sendDirect("GET", "//admin/booking/faults", ops, null).assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/%61dmin/booking/faults", ops, null).assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/webhooks/payments", null, null).assertProblem(403, "internal-credential-required");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void thePaymentWebhookNeedsNoInternalCredentialButItsSignature() {
        String event = newEvent("webhookdirect", 2);
        Checkout checkout = checkout(event, "A-1");
        Response forged = signedWebhook(
                "{\"webhookId\":\"wh-x\",\"paymentAttemptId\":\"" + checkout.attemptId()
                        + "\",\"outcome\":\"SUCCEEDED\",\"amountCents\":" + checkout.amountCents() + "}",
                "sha256=" + "0".repeat(64));
        forged.assertProblem(401, "webhook-signature-invalid");
        Response paid = pay(checkout, "SUCCEEDED");
        assertThat(paid.status()).as(paid.raw().body()).isEqualTo(200);
        assertThat(paid.text("effect")).isEqualTo("PAID");
        assertThat(seatState(event, "A-1")).isEqualTo("SOLD");
    }

    @Test
    void withTheCredentialButWithoutTheGatewaysAssertionAShopRequestIsRefused() {
        String event = newEvent("noassertion", 2);
        TestShopper shopper = shopper(event);
        direct("POST", holds(event), shopper, HOLD_A1, null).assertProblem(401, "gateway-assertion-required");
        direct("GET", "/events/" + event + "/shop/seats", shopper, null, null)
                .assertProblem(401, "gateway-assertion-required");
        direct("POST", holds(event), shopper, HOLD_A1, "").assertProblem(401, "gateway-assertion-required");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void forgedTamperedAndForeignAssertionsAreRefused() {
        String event = newEvent("forgedassertion", 2);
        TestShopper shopper = shopper(event);
        ShopAssertion genuine = assertion(shopper, "POST", holds(event), Instant.now());
        byte[] attackerKey = new byte[32];
        new SecureRandom().nextBytes(attackerKey);
        String forged = ShopAssertionCodec.of(HmacKey.of(attackerKey)).sign(genuine);
        direct("POST", holds(event), shopper, HOLD_A1, forged).assertProblem(401, "gateway-assertion-invalid");

        String signed = signAssertion(genuine);
        String[] parts = signed.split("\\.");
        String payload = parts[2];
        String tampered = parts[0] + "." + parts[1] + "." + payload.substring(0, 4)
                + (payload.charAt(4) == 'A' ? 'B' : 'A') + payload.substring(5) + "." + parts[3];
        direct("POST", holds(event), shopper, HOLD_A1, tampered).assertProblem(401, "gateway-assertion-invalid");
        direct("POST", holds(event), shopper, HOLD_A1, "sa1.not.an.assertion")
                .assertProblem(401, "gateway-assertion-invalid");
        direct("POST", holds(event), shopper, HOLD_A1, "x".repeat(9000))
                .assertProblem(401, "gateway-assertion-invalid");
        // the admission token itself is not an assertion
        direct("POST", holds(event), shopper, HOLD_A1, shopper.token()).assertProblem(401, "gateway-assertion-invalid");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
        assertThat(count("SELECT count(*) FROM holds WHERE event_id = ?", event))
                .isZero();
    }

    @Test
    void anExpiredAssertionIsRefused() {
        String event = newEvent("expiredassertion", 2);
        TestShopper shopper = shopper(event);
        String old = signAssertion(
                assertion(shopper, "POST", holds(event), Instant.now().minusSeconds(10)));
        direct("POST", holds(event), shopper, HOLD_A1, old)
                .assertProblem(401, "gateway-assertion-invalid")
                .assertDetailContains("expired");
        // one made to live longer than the gateway ever signs is refused too
        ShopAssertion longLived = new ShopAssertion(
                event,
                shopper.sessionId(),
                shopper.visitor(),
                1,
                ShopAssertion.Scope.SHOPPING,
                "POST",
                holds(event),
                Instant.now().plus(Duration.ofHours(1)));
        direct("POST", holds(event), shopper, HOLD_A1, signAssertion(longLived))
                .assertProblem(401, "gateway-assertion-invalid");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void anAssertionReplayedOnAnotherPathOrMethodIsRefused() {
        String event = newEvent("replayassertion", 2);
        String other = newEvent("replayassertion-b", 2);
        TestShopper shopper = shopper(event);
        Instant now = Instant.now();
        String forSeats = signAssertion(assertion(shopper, "GET", "/events/" + event + "/shop/seats", now));
        assertThat(direct("GET", "/events/" + event + "/shop/seats", shopper, null, forSeats)
                        .status())
                .isEqualTo(200);

        direct("POST", holds(event), shopper, HOLD_A1, forSeats)
                .assertProblem(401, "gateway-assertion-invalid")
                .assertDetailContains("wrong audience");
        // the query is not bound: only the seat listing reads one, and a listing changes nothing
        assertThat(direct("GET", "/events/" + event + "/shop/seats?category=A", shopper, null, forSeats)
                        .status())
                .isEqualTo(200);
        String forHold = signAssertion(assertion(shopper, "POST", holds(event), now));
        direct(
                        "POST",
                        "/events/" + event + "/shop/orders",
                        shopper,
                        "{\"holdId\":\"" + UUID.randomUUID() + "\"}",
                        forHold)
                .assertProblem(401, "gateway-assertion-invalid");
        direct("POST", "/events/" + event + "/shop/holds/", shopper, HOLD_A1, forHold)
                .assertProblem(401, "gateway-assertion-invalid");
        TestShopper elsewhere = new TestShopper(other, shopper.sessionId(), shopper.visitor(), shopper.token());
        direct("POST", holds(other), elsewhere, HOLD_A1, forHold).assertProblem(401, "gateway-assertion-invalid");

        String holdId = hold(shopper, "A-2").text("holdId");
        String readHold = signAssertion(assertion(shopper, "GET", holds(event) + "/" + holdId, now));
        direct("DELETE", holds(event) + "/" + holdId, shopper, null, readHold)
                .assertProblem(401, "gateway-assertion-invalid");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
        assertThat(seatState(event, "A-2")).isEqualTo("HELD");
        assertThat(seatState(other, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void anAssertionForAnotherSessionVisitorGenerationOrScopeIsRefused() {
        String event = newEvent("othersession", 2);
        TestShopper shopper = shopper(event);
        TestShopper other = shopper(event);
        Instant now = Instant.now();
        String forOther = signAssertion(assertion(other, "POST", holds(event), now));
        direct("POST", holds(event), shopper, HOLD_A1, forOther)
                .assertProblem(401, "gateway-assertion-invalid")
                .assertDetailContains("another shopping session");
        for (ShopAssertion mismatched : new ShopAssertion[] {
            ShopAssertion.forRequest(
                    event,
                    shopper.sessionId(),
                    other.visitor(),
                    1,
                    ShopAssertion.Scope.SHOPPING,
                    "POST",
                    holds(event),
                    now),
            ShopAssertion.forRequest(
                    event,
                    shopper.sessionId(),
                    shopper.visitor(),
                    2,
                    ShopAssertion.Scope.SHOPPING,
                    "POST",
                    holds(event),
                    now),
            // checked only for reading an order: no liveness check behind it
            ShopAssertion.forRequest(
                    event,
                    shopper.sessionId(),
                    shopper.visitor(),
                    1,
                    ShopAssertion.Scope.ORDER_STATUS,
                    "POST",
                    holds(event),
                    now),
            // BYPASS without the gateway's bypass header
            ShopAssertion.forRequest(
                    event,
                    "bypass-" + shopper.visitor(),
                    shopper.visitor(),
                    0,
                    ShopAssertion.Scope.BYPASS,
                    "POST",
                    holds(event),
                    now)
        }) {
            direct("POST", holds(event), shopper, HOLD_A1, signAssertion(mismatched))
                    .assertProblem(401, "gateway-assertion-invalid");
        }
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    /**
     * The reproduction of the issue: booking, reached directly, accepted a hold, an order and a payment with the
     * admission token of a session that had ended (the gateway refused the same token: session-ended). The token is
     * still unexpired and correctly signed; booking cannot see the registry, and without the gateway's assertion it
     * now refuses every shop request, with or without the internal credential; an assertion captured while the session
     * was live is dead seconds later.
     */
    @Test
    void aTokenWhoseSessionEndedCannotHoldOrderOrPayAtBookingDirectly() {
        String event = newEvent("endedsession", 3);
        TestShopper shopper = shopper(event);
        Instant whileLive = Instant.now();
        String heldWhileLive = hold(shopper, "A-1").text("holdId");
        String capturedHold = signAssertion(assertion(shopper, "POST", holds(event), whileLive.minusSeconds(8)));
        String orders = "/events/" + event + "/shop/orders";
        String capturedOrder = signAssertion(assertion(shopper, "POST", orders, whileLive.minusSeconds(8)));
        String order = "{\"holdId\":\"" + heldWhileLive + "\"}";
        // ... the shopper leaves; the gateway now answers admission-session-ended for this token.

        sendDirect("POST", holds(event), "Bearer " + shopper.token(), "{\"seatIds\":[\"A-2\"]}")
                .assertProblem(403, "internal-credential-required");
        sendDirect("POST", orders, "Bearer " + shopper.token(), order)
                .assertProblem(403, "internal-credential-required");
        direct("POST", holds(event), shopper, "{\"seatIds\":[\"A-2\"]}", null)
                .assertProblem(401, "gateway-assertion-required");
        direct("POST", orders, shopper, order, null).assertProblem(401, "gateway-assertion-required");
        direct("POST", holds(event), shopper, "{\"seatIds\":[\"A-2\"]}", capturedHold)
                .assertProblem(401, "gateway-assertion-invalid");
        direct("POST", orders, shopper, order, capturedOrder).assertProblem(401, "gateway-assertion-invalid");
        direct("GET", "/events/" + event + "/shop/seats", shopper, null, null)
                .assertProblem(401, "gateway-assertion-required");
        direct("DELETE", holds(event) + "/" + heldWhileLive, shopper, null, null)
                .assertProblem(401, "gateway-assertion-required");

        assertThat(seatState(event, "A-2")).isEqualTo("AVAILABLE");
        assertThat(count("SELECT count(*) FROM holds WHERE event_id = ?", event))
                .isOne();
        assertThat(count("SELECT count(*) FROM orders WHERE event_id = ?", event))
                .isZero();
        assertThat(count(
                        "SELECT count(*) FROM payment_attempts a JOIN orders o ON o.order_id = a.order_id "
                                + "WHERE o.event_id = ?",
                        event))
                .isZero();
    }
}
