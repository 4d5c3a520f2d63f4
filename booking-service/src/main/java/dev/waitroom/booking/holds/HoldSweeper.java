package dev.waitroom.booking.holds;

import dev.waitroom.booking.PeriodicSweep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;

/** Gives the seats of lapsed holds back on a schedule (holds also lapse lazily when a new hold takes the seat). */
@Configuration(proxyBeanMethods = false)
class HoldSweeper extends PeriodicSweep {

    private static final Logger log = LoggerFactory.getLogger(HoldSweeper.class);
    private static final int BATCH = 500;

    private final Holds holds;

    HoldSweeper(Holds holds, HoldsProperties properties) {
        super("hold sweep", properties.sweepInterval());
        this.holds = holds;
    }

    @Override
    protected void sweep() {
        int expired;
        do {
            expired = holds.expireLapsedHolds(BATCH);
            if (expired > 0) {
                log.debug("expired {} lapsed holds", expired);
            }
        } while (expired >= BATCH);
    }
}
