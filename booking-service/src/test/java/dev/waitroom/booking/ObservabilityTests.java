package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;

class ObservabilityTests extends ShopTestSupport {

    /** Health and metrics answer on the management port only (the service port has no actuator). */
    @LocalManagementPort
    int managementPort;

    @Test
    void prometheusExposesTheShopCounts() {
        String event = newEvent("metrics", 1);
        hold(shopper(event), "A-1");
        send("GET", "/events/" + event + "/shop/seats", null, null);
        // an admission for another event on this event's route: refused and counted (this test alone makes the
        // rejection series, rather than relying on an earlier test in the same JVM)
        TestShopper elsewhere = shopper(newEvent("metrics-other", 1));
        assertThat(send(
                                "POST",
                                "/events/" + event + "/shop/holds",
                                "Bearer " + elsewhere.token(),
                                "{\"seatIds\":[\"A-1\"]}")
                        .status())
                .isGreaterThanOrEqualTo(400);
        Response scrape = execute(http.request(
                        "GET",
                        URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"),
                        null,
                        "Accept",
                        "text/plain")
                .build());
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.raw().body())
                .contains(
                        "waitroom_booking_holds_total{application=\"booking-service\",outcome=\"created\"}",
                        "waitroom_booking_holds_total{application=\"booking-service\",outcome=\"conflict\"}",
                        "waitroom_booking_hold_failures_total",
                        "waitroom_booking_request_latency_seconds",
                        "waitroom_booking_admission_rejections_total",
                        // the dashboard's "Booking errors" panel selects these by application
                        "http_server_requests_seconds_count{application=\"booking-service\"");
        assertThat(scrape.raw().body().lines().filter(line -> !line.startsWith("#") && !line.isBlank()))
                .as("every series carries the application tag")
                .allSatisfy(line -> assertThat(line).contains("application=\"booking-service\""));
    }

    @Test
    void availableSeatsPerCategoryFollowHoldsOnTheirSchedule() {
        String event = newEvent("avail", 3);
        String series = "waitroom_booking_seats_available{application=\"booking-service\",category=\"A\",event=\""
                + event + "\"} ";
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(prometheus()).contains(series + "3.0"));
        assertThat(hold(shopper(event), "A-1", "A-2").status()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(prometheus()).contains(series + "1.0"));
    }

    private String prometheus() {
        return execute(http.request(
                                "GET",
                                URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"),
                                null,
                                "Accept",
                                "text/plain")
                        .build())
                .raw()
                .body();
    }

    @Test
    void requestIdsAreKeptWhenWellFormedAndReplacedOtherwise() {
        String event = newEvent("reqid", 1);
        TestShopper shopper = shopper(event);
        Response kept = shop(shopper, "GET", "/seats", null, "X-Request-Id", "req-12345678");
        assertThat(kept.raw().headers().firstValue("X-Request-Id")).hasValue("req-12345678");
        Response replaced = shop(shopper, "GET", "/seats", null, "X-Request-Id", "bad id!");
        assertThat(replaced.raw().headers().firstValue("X-Request-Id"))
                .hasValueSatisfying(id -> assertThat(id).matches("[0-9a-f]{32}"));
    }
}
