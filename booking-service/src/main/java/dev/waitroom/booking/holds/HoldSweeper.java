package dev.waitroom.booking.holds;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/** Gives the seats of lapsed holds back on a schedule (holds also lapse lazily when a new hold takes the seat). */
@Configuration(proxyBeanMethods = false)
class HoldSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(HoldSweeper.class);
    private static final int BATCH = 500;

    private final Holds holds;
    private final HoldsProperties properties;

    HoldSweeper(Holds holds, HoldsProperties properties) {
        this.holds = holds;
        this.properties = properties;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::sweep, properties.sweepInterval());
    }

    void sweep() {
        try {
            int expired;
            do {
                expired = holds.expireLapsedHolds(BATCH);
                if (expired > 0) {
                    log.debug("expired {} lapsed holds", expired);
                }
            } while (expired >= BATCH);
        } catch (RuntimeException e) {
            log.warn("hold sweep failed, retrying next interval: {}", e.getClass().getSimpleName());
        }
    }
}
