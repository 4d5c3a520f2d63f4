package dev.waitroom.coordinator.metrics;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Refreshes {@link CoordinatorGauges} every {@code waitroom.coordinator.gauges.refresh} (5 s). Off where the ticker is
 * off (tests, which refresh by hand), like every other schedule of the coordinator.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@ConditionalOnProperty(name = "waitroom.coordinator.ticker-enabled", havingValue = "true", matchIfMissing = true)
class CoordinatorGaugesSchedule {

    private final CoordinatorGauges gauges;

    CoordinatorGaugesSchedule(CoordinatorGauges gauges) {
        this.gauges = gauges;
    }

    @Scheduled(
            fixedDelayString = "${waitroom.coordinator.gauges.refresh:5s}",
            initialDelayString = "${waitroom.coordinator.gauges.refresh:5s}")
    void refresh() {
        this.gauges.refresh();
    }
}
