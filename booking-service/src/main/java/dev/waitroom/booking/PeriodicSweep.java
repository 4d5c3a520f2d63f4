package dev.waitroom.booking;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Background work on a fixed delay that never stops for a failure: the failure is logged (by the subclass's logger)
 * and the next interval tries again.
 */
public abstract class PeriodicSweep implements SchedulingConfigurer {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String name;
    private final Duration interval;

    protected PeriodicSweep(String name, Duration interval) {
        this.name = name;
        this.interval = interval;
    }

    /** One round of the work. */
    protected abstract void sweep();

    @Override
    public final void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::sweepOnce, interval);
    }

    final void sweepOnce() {
        try {
            sweep();
        } catch (RuntimeException e) {
            log.warn("{} failed, retrying next interval: {}", name, e.getClass().getSimpleName());
        }
    }
}
