package dev.waitroom.booking.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.TestSecrets;
import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.AdmissionHeaderKey;
import dev.waitroom.tokens.AdmissionHeaderSigner;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Booking protects its shop as any seller's origin would (docs/design/security/booking.md): a shop request needs the gateway's
 * {@code Waitroom-Admission} header, verified by the waitroom-verifier module with the gateway's public keys, for
 * exactly this method, raw path and event, seconds old; its claims are the shopper. No internal credential reaches a
 * shop route any more, and none is needed there; every other route but the payment webhook still needs it. Every
 * refusal is a problem and changes nothing.
 */
class ShopAdmissionTests extends ShopTestSupport {

    private static final String HOLD_A1 = "{\"seatIds\":[\"A-1\"]}";

    private static String holds(String event) {
        return "/events/" + event + "/shop/holds";
    }

    /** A request with exactly this header (or none), nothing else of the gateway's. */
    private Response withHeader(String method, String path, String body, String header) {
        return header == null
                ? sendDirect(method, path, null, body)
                : sendDirect(method, path, null, body, AdmissionHeader.NAME, header);
    }

    private static String shopping(TestShopper shopper, String method, String path, Instant now) {
        return admissionHeader(
                shopper.eventId(),
                shopper.sessionId(),
                shopper.visitor(),
                1,
                AdmissionHeader.Scope.SHOPPING,
                method,
                path,
                now);
    }

    private static void assertReason(Response refused, String reason) {
        assertThat(refused.text("reason")).as(refused.raw().body()).isEqualTo(reason);
    }

    @Test
    void withoutTheHeaderAShopRequestIsRefusedAndHoldsNothing() {
        String event = newEvent("noheader", 3);
        TestShopper shopper = shopper(event);
        // even with the admission token itself and the internal credential: booking trusts the gateway's header only
        Response refused = sendDirect(
                        "POST",
                        holds(event),
                        "Bearer " + shopper.token(),
                        HOLD_A1,
                        Headers.INTERNAL,
                        TestSecrets.GATEWAY.credential(),
                        "Cookie",
                        "wr_at=" + shopper.token())
                .assertProblem(401, "admission-header-invalid");
        assertReason(refused, "missing");
        withHeader("GET", "/events/" + event + "/shop/seats", null, null)
                .assertProblem(401, "admission-header-invalid");
        withHeader("GET", "/events/" + event + "/shop/orders/" + UUID.randomUUID(), null, null)
                .assertProblem(401, "admission-header-invalid");
        assertReason(withHeader("POST", holds(event), HOLD_A1, ""), "missing");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void aValidHeaderAloneShops() {
        String event = newEvent("headeronly", 3);
        TestShopper shopper = shopper(event);
        Response held =
                withHeader("POST", holds(event), HOLD_A1, shopping(shopper, "POST", holds(event), Instant.now()));
        assertThat(held.status()).as(held.raw().body()).isEqualTo(201);
        assertThat(seatState(event, "A-1")).isEqualTo("HELD");
        String hold = "/events/" + event + "/shop/holds/" + held.text("holdId");
        assertThat(withHeader("GET", hold, null, shopping(shopper, "GET", hold, Instant.now()))
                        .status())
                .isEqualTo(200);
        // the hold is the session's: another session's header does not see it
        TestShopper other = shopper(event);
        withHeader("GET", hold, null, shopping(other, "GET", hold, Instant.now()))
                .assertProblem(404, "hold-not-found");
    }

    @Test
    void forgedTamperedMalformedAndForeignHeadersAreRefused() {
        String event = newEvent("forged", 3);
        TestShopper shopper = shopper(event);
        String path = holds(event);
        String valid = shopping(shopper, "POST", path, Instant.now());

        AdmissionHeaderSigner stranger = AdmissionHeaderSigner.of(AdmissionHeaderKey.generate(), null);
        String otherKey = stranger.sign(AdmissionHeader.forRequest(
                "booking",
                event,
                shopper.sessionId(),
                shopper.visitor(),
                1,
                AdmissionHeader.Scope.SHOPPING,
                "POST",
                path,
                Instant.now()));
        assertReason(withHeader("POST", path, HOLD_A1, otherKey), "unknown-key");

        String[] parts = valid.split("\\.");
        String tampered = parts[0] + "." + parts[1].substring(0, parts[1].length() - 2) + "AA." + parts[2];
        assertReason(withHeader("POST", path, HOLD_A1, tampered), "bad-signature");
        String resigned = parts[0] + "." + parts[1] + "." + parts[2].substring(0, 10) + "A" + parts[2].substring(11);
        assertThat(withHeader("POST", path, HOLD_A1, resigned).text("reason")).isIn("bad-signature", "malformed");
        assertReason(withHeader("POST", path, HOLD_A1, "eyJhbGciOiJub25lIn0.e30."), "unsupported-algorithm");
        assertReason(withHeader("POST", path, HOLD_A1, "not a header"), "malformed");
        assertReason(withHeader("POST", path, HOLD_A1, "x".repeat(8 * 1024 + 1)), "malformed");
        String otherAudience = TestSecrets.ADMISSION_HEADERS.sign(AdmissionHeader.forRequest(
                "another-shop",
                event,
                shopper.sessionId(),
                shopper.visitor(),
                1,
                AdmissionHeader.Scope.SHOPPING,
                "POST",
                path,
                Instant.now()));
        assertReason(withHeader("POST", path, HOLD_A1, otherAudience), "wrong-audience");

        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
        assertThat(count("SELECT count(*) FROM holds WHERE event_id = ?", event))
                .isZero();
    }

    @Test
    void aHeaderForAnotherEventIsRefusedWith403() {
        String event = newEvent("wrongevent", 3);
        String other = newEvent("otherevent", 3);
        TestShopper elsewhere = shopper(other);
        // signed for this very path, but naming the other event
        withHeader("POST", holds(event), HOLD_A1, shopping(elsewhere, "POST", holds(event), Instant.now()))
                .assertProblem(403, "admission-wrong-event");
        // the same through the gateway emulation: the token is the other event's
        send("POST", holds(event), "Bearer " + elsewhere.token(), HOLD_A1).assertProblem(403, "admission-wrong-event");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void anExpiredHeaderIsRefused() {
        String event = newEvent("expiredheader", 3);
        TestShopper shopper = shopper(event);
        String old = shopping(
                shopper,
                "POST",
                holds(event),
                Instant.now().minus(AdmissionHeader.LIFETIME).minusSeconds(10));
        assertReason(withHeader("POST", holds(event), HOLD_A1, old), "expired");
        String future = shopping(shopper, "POST", holds(event), Instant.now().plusSeconds(60));
        assertReason(withHeader("POST", holds(event), HOLD_A1, future), "not-yet-valid");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void aHeaderReplayedOnAnotherPathOrMethodIsRefused() {
        String event = newEvent("replay", 3);
        TestShopper shopper = shopper(event);
        String seats = "/events/" + event + "/shop/seats";
        String forSeats = shopping(shopper, "GET", seats, Instant.now());
        assertThat(withHeader("GET", seats, null, forSeats).status()).isEqualTo(200);

        assertReason(withHeader("GET", holds(event) + "/" + UUID.randomUUID(), null, forSeats), "wrong-path");
        assertReason(withHeader("POST", seats, HOLD_A1, forSeats), "wrong-method");
        // the raw path is what is signed: an encoded or decorated spelling of the same route is another path
        assertReason(withHeader("GET", "/events/" + event + "/shop/%73eats", null, forSeats), "wrong-path");
        assertReason(withHeader("GET", seats + "/", null, forSeats), "wrong-path");
        String forHolds = shopping(shopper, "POST", holds(event), Instant.now());
        assertReason(withHeader("DELETE", holds(event) + "/" + UUID.randomUUID(), null, forHolds), "wrong-method");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void anOrderStatusHeaderReadsAnOrderButCannotShop() {
        String event = newEvent("orderstatusscope", 3);
        TestShopper shopper = shopper(event);
        String orderId = order(shopper, hold(shopper, "A-1").text("holdId")).text("orderId");
        String order = "/events/" + event + "/shop/orders/" + orderId;
        String read = admissionHeader(
                event,
                shopper.sessionId(),
                shopper.visitor(),
                1,
                AdmissionHeader.Scope.ORDER_STATUS,
                "GET",
                order,
                Instant.now());
        assertThat(withHeader("GET", order, null, read).status()).isEqualTo(200);
        String hold = admissionHeader(
                event,
                shopper.sessionId(),
                shopper.visitor(),
                1,
                AdmissionHeader.Scope.ORDER_STATUS,
                "POST",
                holds(event),
                Instant.now());
        Response refused = withHeader("POST", holds(event), "{\"seatIds\":[\"A-2\"]}", hold)
                .assertProblem(401, "admission-header-invalid");
        assertReason(refused, "other-scope");
        assertThat(seatState(event, "A-2")).isEqualTo("AVAILABLE");
    }

    @Test
    void aBypassHeaderShopsUnderTheGatewaysBypassSessionOfItsVisitor() {
        String event = newEvent("bypass", 3);
        String visitor = "AAAAAAAAAAAAAAAAAAAAAA";
        String bypass = admissionHeader(
                event,
                "bypass-" + visitor,
                visitor,
                0,
                AdmissionHeader.Scope.BYPASS,
                "POST",
                holds(event),
                Instant.now());
        // the old headers a client could send mean nothing
        sendDirect("POST", holds(event), null, HOLD_A1, "X-Waitroom-Bypass", event, Headers.VISITOR, visitor)
                .assertProblem(401, "admission-header-invalid");
        Response held = withHeader("POST", holds(event), HOLD_A1, bypass);
        assertThat(held.status()).as(held.raw().body()).isEqualTo(201);
        assertThat(seatState(event, "A-1")).isEqualTo("HELD");
        // a BYPASS header for this event is no BYPASS for another
        String other = newEvent("bypass-other", 3);
        withHeader("POST", holds(other), HOLD_A1, bypass).assertProblem(401, "admission-header-invalid");
    }

    @Test
    void headersOfAnOlderSaleGenerationCannotShopOnceANewerOneWasSeen() {
        String event = newEvent("generation", 3);
        String seats = "/events/" + event + "/shop/seats";
        String newer =
                admissionHeader(event, "s7", "v7", 7, AdmissionHeader.Scope.SHOPPING, "GET", seats, Instant.now());
        String older =
                admissionHeader(event, "s6", "v6", 6, AdmissionHeader.Scope.SHOPPING, "GET", seats, Instant.now());
        assertThat(withHeader("GET", seats, null, newer).status()).isEqualTo(200);
        assertReason(
                withHeader("GET", seats, null, older).assertProblem(401, "admission-header-invalid"), "old-generation");
    }

    /**
     * A header captured while the session was live is dead seconds later, and the admission token alone, or the
     * internal credential, gets nowhere: a session that ended at the gateway buys nothing at booking directly.
     */
    @Test
    void aCapturedHeaderOrTheTokenAloneBuysNothingLater() {
        String event = newEvent("endedsession", 3);
        TestShopper shopper = shopper(event);
        String heldWhileLive = hold(shopper, "A-1").text("holdId");
        String orders = "/events/" + event + "/shop/orders";
        String order = "{\"holdId\":\"" + heldWhileLive + "\"}";
        Instant captured = Instant.now().minus(AdmissionHeader.LIFETIME).minusSeconds(10);

        sendDirect(
                        "POST",
                        orders,
                        "Bearer " + shopper.token(),
                        order,
                        Headers.INTERNAL,
                        TestSecrets.GATEWAY.credential())
                .assertProblem(401, "admission-header-invalid");
        withHeader("POST", orders, order, shopping(shopper, "POST", orders, captured))
                .assertProblem(401, "admission-header-invalid");
        withHeader("POST", holds(event), "{\"seatIds\":[\"A-2\"]}", shopping(shopper, "POST", holds(event), captured))
                .assertProblem(401, "admission-header-invalid");

        assertThat(seatState(event, "A-2")).isEqualTo("AVAILABLE");
        assertThat(count("SELECT count(*) FROM orders WHERE event_id = ?", event))
                .isZero();
    }

    @Test
    void everyOtherRouteButThePaymentWebhookStillNeedsTheInternalCredential() {
        String event = newEvent("nocredential", 2);
        String ops = "Bearer " + TestSecrets.OPS_TOKEN;
        sendDirect("GET", "/admin/events/" + event + "/inventory", ops, null)
                .assertProblem(403, "internal-credential-required");
        sendDirect("PUT", "/admin/events/" + event + "/inventory", ops, "{\"categories\":[]}")
                .assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/admin/booking/faults", ops, null).assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/admin/booking/faults", ops, null, Headers.INTERNAL, "wrong-credential-0123456789")
                .assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/v3/api-docs", null, null).assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/anything-else", null, null).assertProblem(403, "internal-credential-required");
        // path tricks are the same path to the credential check
        sendDirect("GET", "//admin/booking/faults", ops, null).assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/%61dmin/booking/faults", ops, null).assertProblem(403, "internal-credential-required");
        sendDirect("GET", "/webhooks/payments", null, null).assertProblem(403, "internal-credential-required");
        // a valid Waitroom-Admission header is no credential for an ops route
        String inventory = "/admin/events/" + event + "/inventory";
        TestShopper shopper = shopper(event);
        sendDirect(
                        "GET",
                        inventory,
                        ops,
                        null,
                        AdmissionHeader.NAME,
                        shopping(shopper, "GET", inventory, Instant.now()))
                .assertProblem(403, "internal-credential-required");
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
    void malformedEventIdInThePathIsABadRequest() {
        TestShopper shopper = shopper("fine");
        String path = "/events/bad%20id/shop/seats";
        withHeader(
                        "GET",
                        path,
                        null,
                        admissionHeader(
                                "bad id",
                                shopper.sessionId(),
                                shopper.visitor(),
                                1,
                                AdmissionHeader.Scope.SHOPPING,
                                "GET",
                                path,
                                Instant.now()))
                .assertProblem(400, "invalid-event-id");
    }
}
