package dev.waitroom.booking.sale;

import dev.waitroom.booking.PeriodicSweep;
import dev.waitroom.booking.holds.HoldsProperties;
import org.springframework.context.annotation.Configuration;

/**
 * Notices, on the hold sweep's schedule, events whose seats are all sold but that have no sold-out signal yet (the
 * check at the end of a sale can race with a concurrent one).
 */
@Configuration(proxyBeanMethods = false)
class SoldOutSweeper extends PeriodicSweep {

    private final Sale sale;

    SoldOutSweeper(Sale sale, HoldsProperties properties) {
        super("sold-out sweep", properties.sweepInterval());
        this.sale = sale;
    }

    @Override
    protected void sweep() {
        sale.signalSoldOutEvents();
    }
}
