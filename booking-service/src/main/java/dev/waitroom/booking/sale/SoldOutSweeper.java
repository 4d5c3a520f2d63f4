package dev.waitroom.booking.sale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import dev.waitroom.booking.holds.HoldsProperties;

/**
 * Notices, on the hold sweep's schedule, events whose seats are all sold but that have no sold-out signal yet (the
 * check at the end of a sale can race with a concurrent one).
 */
@Configuration(proxyBeanMethods = false)
class SoldOutSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(SoldOutSweeper.class);

    private final Sale sale;
    private final HoldsProperties properties;

    SoldOutSweeper(Sale sale, HoldsProperties properties) {
        this.sale = sale;
        this.properties = properties;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::sweep, properties.sweepInterval());
    }

    void sweep() {
        try {
            sale.signalSoldOutEvents();
        } catch (RuntimeException e) {
            log.warn("sold-out sweep failed, retrying next interval: {}", e.getClass().getSimpleName());
        }
    }
}
