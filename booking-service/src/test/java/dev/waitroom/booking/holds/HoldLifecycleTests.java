package dev.waitroom.booking.holds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.booking.ShopTestSupport;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class HoldLifecycleTests extends ShopTestSupport {

    @Test
    void aHoldReservesSeatsUntilItsDeadlineAndListsThemAsUnavailable() {
        String event = newEvent("hold", 4);
        TestShopper shopper = shopper(event);
        Response held = hold(shopper, "A-1", "A-2");
        assertThat(held.status()).isEqualTo(201);
        assertThat(held.raw().headers().firstValue("Location"))
                .hasValueSatisfying(l -> l.endsWith(held.text("holdId")));
        assertThat(held.text("state")).isEqualTo("ACTIVE");
        assertThat(held.json().get("amountCents").asLong()).isEqualTo(5000);
        assertThat(java.time.Instant.parse(held.text("expiresAt")))
                .isAfter(java.time.Instant.now().plusSeconds(60));

        Response seats = shop(shopper(event), "GET", "/seats?category=A", null);
        assertThat(seats.status()).isEqualTo(200);
        assertThat(seats.json().get("seats").findValuesAsString("seatId")).containsExactly("A-3", "A-4");
        assertThat(seats.json().get("categories").get(0).get("available").asInt())
                .isEqualTo(2);
    }

    @Test
    void expiredHoldsGiveTheirSeatsBackThroughTheSweeper() {
        String event = newEvent("expiry", 2);
        TestShopper shopper = shopper(event);
        String holdId = hold(shopper, "A-1", "A-2").text("holdId");
        lapse(holdId);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
            assertThat(seatState(event, "A-2")).isEqualTo("AVAILABLE");
        });
        assertThat(shop(shopper, "GET", "/holds/" + holdId, null).text("state")).isEqualTo("EXPIRED");
        order(shopper, holdId).assertProblem(409, "hold-not-active");
        assertThat(hold(shopper(event), "A-1").status()).isEqualTo(201);
    }

    @Test
    void aLapsedHoldsSeatCanBeTakenAtOnceWithoutWaitingForTheSweeper() {
        String event = newEvent("lazy", 1);
        String first = hold(shopper(event), "A-1").text("holdId");
        lapse(first);
        // Straight away, before any sweep: the conditional update treats the lapsed hold as gone.
        Response second = hold(shopper(event), "A-1");
        assertThat(second.status()).as(second.raw().body()).isEqualTo(201);
        assertThat(seatRow(event, "A-1")).containsEntry("hold_id", UUID.fromString(second.text("holdId")));
        // The sweeper later ends the lapsed hold without touching the seat that moved on.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(count(
                                "SELECT count(*) FROM holds WHERE hold_id = ?::uuid AND state = 'EXPIRED'", first))
                        .isEqualTo(1));
        assertThat(seatRow(event, "A-1"))
                .containsEntry("state", "HELD")
                .containsEntry("hold_id", UUID.fromString(second.text("holdId")));
    }

    @Test
    void releasingAHoldReturnsItsSeatsAndIsIdempotent() {
        String event = newEvent("release", 2);
        TestShopper shopper = shopper(event);
        String holdId = hold(shopper, "A-1").text("holdId");
        assertThat(shop(shopper, "DELETE", "/holds/" + holdId, null).status()).isEqualTo(204);
        assertThat(shop(shopper, "DELETE", "/holds/" + holdId, null).status()).isEqualTo(204);
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
        assertThat(shop(shopper, "GET", "/holds/" + holdId, null).text("state")).isEqualTo("RELEASED");
    }

    @Test
    void anotherShoppersHoldCannotBeSeenOrReleased() {
        String event = newEvent("foreignhold", 2);
        String holdId = hold(shopper(event), "A-1").text("holdId");
        TestShopper stranger = shopper(event);
        shop(stranger, "DELETE", "/holds/" + holdId, null).assertProblem(404, "hold-not-found");
        shop(stranger, "GET", "/holds/" + holdId, null).assertProblem(404, "hold-not-found");
        order(stranger, holdId).assertProblem(404, "hold-not-found");
        assertThat(seatState(event, "A-1")).isEqualTo("HELD");
    }

    @Test
    void badHoldRequestsAreProblemsThatChangeNothing() {
        String event = newEvent("badhold", 3);
        TestShopper shopper = shopper(event);
        hold(shopper, "A-1", "Z-9").assertProblem(422, "unknown-seats");
        hold(shopper, "bad seat").assertProblem(400, "malformed-request");
        shop(shopper, "POST", "/holds", "{\"seatIds\":[]}").assertProblem(400, "malformed-request");
        shop(shopper, "POST", "/holds", "{\"seatIds\":").assertProblem(400, "malformed-request");
        shop(shopper, "POST", "/holds", "[1,2,3]").assertProblem(400, "malformed-request");
        shop(shopper, "POST", "/holds", "{\"seatIds\":\"A-1\"}").assertProblem(400, "malformed-request");
        hold(shopper, seats("A", 1, 11).toArray(String[]::new)).assertProblem(400, "malformed-request");
        shop(shopper, "POST", "/holds", "{\"seatIds\":[\"A-1\"],\"pad\":\"" + "x".repeat(20_000) + "\"}")
                .assertProblem(413, "body-too-large");
        shop(shopper, "DELETE", "/holds/not-a-uuid", null).assertProblem(400, "malformed-request");
        shop(shopper, "GET", "/seats?category=no%20such", null).assertProblem(400, "malformed-request");

        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ? AND state = 'AVAILABLE'", event))
                .isEqualTo(3);
        assertThat(count("SELECT count(*) FROM holds WHERE event_id = ?", event))
                .isZero();
    }

    @Test
    void aSessionCannotHoldMoreThanItsLimitEvenWithConcurrentHolds() throws Exception {
        String event = newEvent("limit", 30);
        TestShopper shopper = shopper(event);
        java.util.List<java.util.concurrent.CompletableFuture<Response>> attempts = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String[] three = seats("A", 1 + 3 * i, 3 + 3 * i).toArray(String[]::new);
            attempts.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> hold(shopper, three)));
        }
        java.util.List<Response> responses = attempts.stream()
                .map(java.util.concurrent.CompletableFuture::join)
                .toList();
        assertThat(responses.stream().filter(r -> r.status() == 201)).hasSize(3);
        responses.stream().filter(r -> r.status() != 201).forEach(r -> r.assertProblem(409, "seat-limit-reached"));
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ? AND state = 'HELD'", event))
                .isEqualTo(9);
        assertThat(hold(shopper, "A-30").status()).isEqualTo(201);
        hold(shopper, "A-29").assertProblem(409, "seat-limit-reached");
        // Other shoppers are not limited by this one.
        assertThat(hold(shopper(event), "A-29").status()).isEqualTo(201);
    }

    @Test
    void anOversizedChunkedBodyIsCutOffWhileReadingAndChangesNothing() {
        String event = newEvent("chunked", 1);
        TestShopper shopper = shopper(event);
        String body = "{\"seatIds\":[\"A-1\"],\"pad\":\"" + "x".repeat(40_000) + "\"}";
        // No Content-Length: the limit is enforced by counting the bytes as they are read.
        String path = "/events/" + event + "/shop/holds";
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + shopper.token())
                .header("Content-Type", "application/json")
                .headers(asGateway("POST", path, "Bearer " + shopper.token()))
                .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofString(body)))
                .build();
        execute(request).assertProblem(413, "body-too-large");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
    }
}
