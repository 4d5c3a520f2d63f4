package dev.waitroom.booking.faults;

import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The fault injection in force. Changing it is logged loudly: an operator must see that results are synthetic. */
public final class Faults {

    private static final Logger log = LoggerFactory.getLogger(Faults.class);

    private final AtomicReference<FaultSettings> current = new AtomicReference<>(FaultSettings.NONE);
    private final ConnectionGate gate;

    Faults(ConnectionGate gate) {
        this.gate = gate;
    }

    public FaultSettings current() {
        return current.get();
    }

    public FaultSettings set(FaultSettings settings) {
        current.set(settings);
        gate.limit(settings.poolLimit());
        log.warn(
                "fault injection set: latencyMs={} errorRate={} poolLimit={}",
                settings.latencyMs(),
                settings.errorRate(),
                settings.poolLimit());
        return settings;
    }

    public FaultSettings clear() {
        return set(FaultSettings.NONE);
    }
}
