package dev.waitroom.booking.inventory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Gives the seats of lapsed holds back on a schedule (holds also lapse lazily when a new hold takes the seat), and
 * notices events whose seats are all sold.
 */
@Configuration(proxyBeanMethods = false)
class HoldSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(HoldSweeper.class);
    private static final int BATCH = 500;

    private final Inventory inventory;
    private final InventoryProperties properties;

    HoldSweeper(Inventory inventory, InventoryProperties properties) {
        this.inventory = inventory;
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
                expired = inventory.expireLapsedHolds(BATCH);
                if (expired > 0) {
                    log.debug("expired {} lapsed holds", expired);
                }
            } while (expired >= BATCH);
            inventory.signalSoldOutEvents();
        } catch (RuntimeException e) {
            log.warn("hold sweep failed, retrying next interval: {}", e.getClass().getSimpleName());
        }
    }
}
