package dev.waitroom.booking.sale;

import dev.waitroom.booking.PeriodicSweep;
import dev.waitroom.booking.catalogue.CategoryReports;
import dev.waitroom.booking.holds.HoldsProperties;
import org.springframework.context.annotation.Configuration;

/**
 * Notices, on the hold sweep's schedule, seat categories that ran out of seats to take or have some again without a
 * report (two holds taking a category's last seats at once, a hold's deadline passing), then events whose seats are
 * all sold but that have no sold-out signal yet (the check at the end of a sale can race with a concurrent one).
 */
@Configuration(proxyBeanMethods = false)
class SoldOutSweeper extends PeriodicSweep {

    private final Sale sale;
    private final CategoryReports categories;

    SoldOutSweeper(Sale sale, CategoryReports categories, HoldsProperties properties) {
        super("sold-out sweep", properties.sweepInterval());
        this.sale = sale;
        this.categories = categories;
    }

    @Override
    protected void sweep() {
        categories.sweep();
        sale.signalSoldOutEvents();
    }
}
