package dev.waitroom.booking.access;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param orderStatusGrace how long after its expiry a session's token may still read its orders
 * @param jwksTimeout      timeout of one JWKS fetch from the coordinator
 */
@ConfigurationProperties("waitroom.booking.admission")
record AdmissionProperties(
        @DefaultValue("24h") Duration orderStatusGrace,
        @DefaultValue("2s") Duration jwksTimeout) {

    AdmissionProperties {
        if (orderStatusGrace.isNegative() || jwksTimeout.isNegative() || jwksTimeout.isZero()) {
            throw new IllegalArgumentException("admission durations must be positive");
        }
    }
}
