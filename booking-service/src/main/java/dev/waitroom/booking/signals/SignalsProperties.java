package dev.waitroom.booking.signals;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param interval how often health is reported and owed signals are (re)sent
 * @param timeout  timeout of one call to the coordinator (short: signals never hold shoppers up)
 */
@ConfigurationProperties("waitroom.booking.signals")
record SignalsProperties(
        @DefaultValue("1s") Duration interval,
        @DefaultValue("1s") Duration timeout) {

    SignalsProperties {
        if (interval.toMillis() < 50 || timeout.toMillis() < 10) {
            throw new IllegalArgumentException("signals interval must be at least 50ms and timeout at least 10ms");
        }
    }
}
