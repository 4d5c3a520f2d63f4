package dev.waitroom.booking.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.TestSecrets;
import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.ShopAssertion;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The booking service checks admission itself, besides the gateway's assertion ({@link GatewayAssertionTests}): the
 * requests here come with the gateway's credential and an assertion naming the token's session, so a bad token is
 * refused by booking's own check, and nothing changes.
 */
class ShopAdmissionTests extends ShopTestSupport {

    @Test
    void noTokenIsRefusedWith401AndHoldsNothing() {
        String event = newEvent("notoken", 3);
        send("POST", "/events/" + event + "/shop/holds", null, "{\"seatIds\":[\"A-1\"]}")
                .assertProblem(401, "admission-token-required");
        send("GET", "/events/" + event + "/shop/seats", null, null).assertProblem(401, "admission-token-required");
        send("GET", "/events/" + event + "/shop/orders/" + UUID.randomUUID(), null, null)
                .assertProblem(401, "admission-token-required");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void tokenForAnotherEventIsRefusedWith403() {
        String event = newEvent("wrongevent", 3);
        String other = newEvent("otherevent", 3);
        TestShopper admittedElsewhere = shopper(other);
        send(
                        "POST",
                        "/events/" + event + "/shop/holds",
                        "Bearer " + admittedElsewhere.token(),
                        "{\"seatIds\":[\"A-1\"]}")
                .assertProblem(403, "admission-wrong-event");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }

    @Test
    void expiredForgedAndGarbageTokensAreRefusedWith401() {
        String event = newEvent("badtoken", 3);
        TestShopper shopper = shopper(event);
        String hold = "{\"seatIds\":[\"A-1\"]}";
        send("POST", "/events/" + event + "/shop/holds", "Bearer " + expiredTokenOf(shopper), hold)
                .assertProblem(401, "admission-token-invalid");
        send("POST", "/events/" + event + "/shop/holds", "Bearer not.a.jwt", hold)
                .assertProblem(401, "admission-token-invalid");
        send("POST", "/events/" + event + "/shop/holds", "Bearer " + "x".repeat(8 * 1024 + 1), hold)
                .assertProblem(401, "admission-token-invalid");
        String forged = liveToken(AdmissionTokenIssuer.of(KeyRing.generate(Clock.systemUTC())), event, 1, "s", "v");
        send("POST", "/events/" + event + "/shop/holds", "Bearer " + forged, hold)
                .assertProblem(401, "admission-token-invalid");
        // A token with the right shape signed by the right key but tampered with in the payload.
        String[] parts = shopper.token().split("\\.");
        String tampered = parts[0] + "." + parts[1].substring(0, parts[1].length() - 2) + "AA." + parts[2];
        send("POST", "/events/" + event + "/shop/holds", "Bearer " + tampered, hold)
                .assertProblem(401, "admission-token-invalid");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
        assertThat(count("SELECT count(*) FROM holds WHERE event_id = ?", event))
                .isZero();
    }

    @Test
    void bypassIsHonouredOnlyAsTheGatewaySendsItForTheSameEventAndVisitor() {
        String event = newEvent("bypass", 3);
        String visitor = "AAAAAAAAAAAAAAAAAAAAAA";
        String path = "/events/" + event + "/shop/holds";
        String hold = "{\"seatIds\":[\"A-3\"]}";
        // A client that sets the bypass header itself, without the gateway's credential, gets nowhere.
        sendDirect("POST", path, null, hold, Headers.BYPASS, event, Headers.VISITOR, visitor)
                .assertProblem(403, "internal-credential-required");
        sendDirect("POST", path, null, hold, Headers.BYPASS, event, Headers.VISITOR, visitor, Headers.INTERNAL, "wrong")
                .assertProblem(403, "internal-credential-required");
        // Nor with the credential alone: the gateway's BYPASS assertion is part of it.
        sendDirect(
                        "POST",
                        path,
                        null,
                        hold,
                        Headers.BYPASS,
                        event,
                        Headers.VISITOR,
                        visitor,
                        Headers.INTERNAL,
                        TestSecrets.INTERNAL_TOKEN)
                .assertProblem(401, "gateway-assertion-required");
        // Bypass for another event is not bypass for this one.
        send("POST", path, null, hold, Headers.BYPASS, "other-event", Headers.VISITOR, visitor)
                .assertProblem(401, "gateway-assertion-invalid");
        // A BYPASS assertion for another visitor, or an ordinary one without a token, admits nobody.
        String otherVisitor = signAssertion(ShopAssertion.forRequest(
                event,
                "bypass-BBBBBBBBBBBBBBBBBBBBBB",
                "BBBBBBBBBBBBBBBBBBBBBB",
                0,
                ShopAssertion.Scope.BYPASS,
                "POST",
                path,
                Instant.now()));
        send("POST", path, null, hold, Headers.BYPASS, event, Headers.VISITOR, visitor, Headers.ASSERTION, otherVisitor)
                .assertProblem(401, "gateway-assertion-invalid");
        String shopping = signAssertion(ShopAssertion.forRequest(
                event, "s", visitor, 0, ShopAssertion.Scope.SHOPPING, "POST", path, Instant.now()));
        send("POST", path, null, hold, Headers.BYPASS, event, Headers.VISITOR, visitor, Headers.ASSERTION, shopping)
                .assertProblem(401, "admission-token-required");
        assertThat(seatState(event, "A-3")).isEqualTo("AVAILABLE");
        Response held = send("POST", path, null, hold, Headers.BYPASS, event, Headers.VISITOR, visitor);
        assertThat(held.status()).as(held.raw().body()).isEqualTo(201);
        assertThat(seatState(event, "A-3")).isEqualTo("HELD");
    }

    @Test
    void theAdmissionCookieIsAcceptedLikeTheBearerHeader() {
        String event = newEvent("cookie", 3);
        TestShopper shopper = shopper(event);
        Response held = send(
                "POST",
                "/events/" + event + "/shop/holds",
                null,
                "{\"seatIds\":[\"A-2\"]}",
                "Cookie",
                "wr_at=" + shopper.token());
        assertThat(held.status()).as(held.raw().body()).isEqualTo(201);
        assertThat(seatState(event, "A-2")).isEqualTo("HELD");
    }

    @Test
    void tokensOfAnOlderSaleGenerationAreRefusedOnceANewerOneWasSeen() {
        String event = newEvent("generation", 3);
        String newer = liveToken(ISSUER, event, 7, "s7", "v7");
        String older = liveToken(ISSUER, event, 6, "s6", "v6");
        assertThat(send("GET", "/events/" + event + "/shop/seats", "Bearer " + newer, null)
                        .status())
                .isEqualTo(200);
        send("GET", "/events/" + event + "/shop/seats", "Bearer " + older, null)
                .assertProblem(401, "admission-token-invalid");
    }

    @Test
    void malformedEventIdInThePathIsABadRequest() {
        TestShopper shopper = shopper("fine");
        send("GET", "/events/bad%20id/shop/seats", "Bearer " + shopper.token(), null)
                .assertProblem(400, "invalid-event-id");
    }
}
