package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/** With fault injection and the payment simulator switched off, none of their beans exists and the shop still works. */
@TestPropertySource(properties = {"waitroom.booking.faults.enabled=false", "waitroom.payments.fake.enabled=false"})
@DirtiesContext
class SimulationsSwitchedOffTests extends ShopTestSupport {

    @Autowired
    ApplicationContext context;

    @Autowired
    DataSource dataSource;

    @Test
    void noBeanOfFaultInjectionOrThePaymentSimulatorExists() {
        assertThat(Arrays.stream(context.getBeanDefinitionNames())
                        .map(context::getType)
                        .filter(type -> type != null
                                && (type.getPackageName().startsWith("dev.waitroom.booking.faults")
                                        || type.getPackageName()
                                                .startsWith("dev.waitroom.booking.payments.simulator"))))
                .isEmpty();
        assertThat(dataSource).isInstanceOf(HikariDataSource.class);
        send("GET", "/admin/booking/faults", "Bearer " + TestSecrets.OPS_TOKEN, null)
                .assertProblem(404, "not-found");
    }

    @Test
    void theShopSellsAndReportsItsPoolFromHikari() {
        String event = newEvent("nosim", 1);
        Response seats = shop(shopper(event), "GET", "/seats", null);
        assertThat(seats.json().get("paymentsSimulated").asBoolean())
                .as("no banner on the shop page")
                .isFalse();
        Instant since = Instant.now();
        assertThat(pay(checkout(event, "A-1"), "SUCCEEDED").text("effect")).isEqualTo("PAID");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(coordinator.healthReports())
                        .filteredOn(r -> r.at().isAfter(since))
                        .anySatisfy(r -> assertThat(r.poolMax()).isEqualTo(8)));
    }
}
