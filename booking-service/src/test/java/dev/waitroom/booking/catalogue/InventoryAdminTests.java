package dev.waitroom.booking.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.TestSecrets;
import dev.waitroom.contract.Headers;
import org.junit.jupiter.api.Test;

class InventoryAdminTests extends ShopTestSupport {

    private static final String OPS = "Bearer " + TestSecrets.OPS_TOKEN;

    private Response define(String event, String body) {
        return send("PUT", "/admin/events/" + event + "/inventory", OPS, body);
    }

    @Test
    void definingInventoryIsIdempotentAndCanGrowACategory() {
        String event = newEventId("inv");
        String body = "{\"categories\":[{\"name\":\"FLOOR\",\"seats\":3,\"priceCents\":9000},"
                + "{\"name\":\"BALCONY\",\"seats\":2,\"priceCents\":4500}]}";
        Response first = define(event, body);
        assertThat(first.status()).as(first.raw().body()).isEqualTo(200);
        assertThat(define(event, body).status()).isEqualTo(200);
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ?", event))
                .isEqualTo(5);

        TestShopper shopper = shopper(event);
        assertThat(hold(shopper, "FLOOR-1").status()).isEqualTo(201);
        Response grown = define(event, "{\"categories\":[{\"name\":\"FLOOR\",\"seats\":4,\"priceCents\":9500}]}");
        assertThat(grown.status()).isEqualTo(200);
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ?", event))
                .isEqualTo(6);
        // Growing never disturbs a seat already held.
        assertThat(seatState(event, "FLOOR-1")).isEqualTo("HELD");
        Response seats = shop(shopper, "GET", "/seats?category=FLOOR", null);
        assertThat(seats.json().get("seats").findValuesAsString("seatId"))
                .containsExactly("FLOOR-2", "FLOOR-3", "FLOOR-4");
        assertThat(seats.json().get("seats").get(0).get("priceCents").asLong()).isEqualTo(9500);
    }

    /**
     * Issue #28: booking's ops API answers only the gateway's credential (it forwards {@code /admin/**}); the
     * coordinator and booking's own credential, valid elsewhere, are unknown here, even with the operator's token.
     */
    @Test
    void onlyTheGatewaysCredentialReachesTheOpsApi() {
        String event = newEventId("invcallers");
        String body = "{\"categories\":[{\"name\":\"A\",\"seats\":3,\"priceCents\":100}]}";
        String ops = "Bearer " + TestSecrets.OPS_TOKEN;
        for (String credential :
                new String[] {TestSecrets.COORDINATOR.credential(), TestSecrets.BOOKING.credential()}) {
            send("PUT", "/admin/events/" + event + "/inventory", ops, body, Headers.INTERNAL, credential)
                    .assertProblem(403, "internal-credential-required");
        }
        send(
                        "GET",
                        "/admin/events/" + event + "/inventory",
                        ops,
                        null,
                        Headers.INTERNAL,
                        TestSecrets.BOOKING.credential())
                .assertProblem(403, "internal-credential-required");
        send("PUT", "/internal/anything", ops, body).assertProblem(403, "caller-not-allowed");
        assertThat(send("PUT", "/admin/events/" + event + "/inventory", ops, body)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void inventoryChangesNeedTheOpsTokenAndValidBodies() {
        String event = newEventId("invbad");
        String body = "{\"categories\":[{\"name\":\"A\",\"seats\":3,\"priceCents\":100}]}";
        send("PUT", "/admin/events/" + event + "/inventory", null, body).assertProblem(401, "ops-credential-required");
        send("PUT", "/admin/events/" + event + "/inventory", "Bearer " + TestSecrets.GATEWAY.credential(), body)
                .assertProblem(401, "ops-credential-required");
        define(event, "{\"categories\":[]}").assertProblem(400, "malformed-request");
        define(event, "{\"categories\":[{\"name\":\"bad name\",\"seats\":3,\"priceCents\":100}]}")
                .assertProblem(400, "malformed-request");
        define(event, "{\"categories\":[{\"name\":\"A\",\"seats\":-1,\"priceCents\":100}]}")
                .assertProblem(400, "malformed-request");
        define(event, "{\"categories\":[{\"name\":\"A\",\"seats\":1}]}").assertProblem(400, "malformed-request");
        define(
                        event,
                        "{\"categories\":[{\"name\":\"A\",\"seats\":1,\"priceCents\":1},"
                                + "{\"name\":\"A\",\"seats\":2,\"priceCents\":1}]}")
                .assertProblem(400, "malformed-request");
        define(event, "{\"categories\":").assertProblem(400, "malformed-request");
        send("PUT", "/admin/events/bad%20event/inventory", OPS, body).assertProblem(400, "invalid-event-id");
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ?", event))
                .isZero();

        assertThat(define(event, body).status()).isEqualTo(200);
        define(event, "{\"categories\":[{\"name\":\"A\",\"seats\":2,\"priceCents\":100}]}")
                .assertProblem(409, "inventory-conflict");
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ?", event))
                .isEqualTo(3);
    }
}
