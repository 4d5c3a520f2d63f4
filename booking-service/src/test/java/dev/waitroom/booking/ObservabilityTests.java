package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
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
                        "waitroom_booking_holds_total{outcome=\"created\"}",
                        "waitroom_booking_holds_total{outcome=\"conflict\"}",
                        "waitroom_booking_hold_failures_total",
                        "waitroom_booking_request_latency_seconds",
                        "waitroom_booking_admission_rejections_total");
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
