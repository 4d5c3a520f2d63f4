package dev.waitroom.booking.orders;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Reconciliation of payment attempts that never report (a webhook lost with a killed JVM: chaos run seed 31).
 *
 * @param reconcileAfter    how long a payment attempt may go without an outcome before the provider is asked about it
 *                          again, and again each time as long after (database clock)
 * @param reconcileInterval how often the sweep looks for such attempts
 */
@ConfigurationProperties("waitroom.booking.payments")
public record PaymentReconciliationProperties(
        @DefaultValue("30s") Duration reconcileAfter,
        @DefaultValue("5s") Duration reconcileInterval) {

    public PaymentReconciliationProperties {
        if (reconcileAfter.toMillis() < 1000 || reconcileInterval.toMillis() < 10) {
            throw new IllegalArgumentException(
                    "reconcile-after must be at least 1s and reconcile-interval at least 10ms");
        }
    }
}
