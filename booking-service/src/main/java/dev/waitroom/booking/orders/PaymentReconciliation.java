package dev.waitroom.booking.orders;

import dev.waitroom.booking.PeriodicSweep;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;

/**
 * Asks the provider again about payment attempts that have not reported within
 * {@code waitroom.booking.payments.reconcile-after}, as a shop does with a real provider: a webhook can be lost (the
 * simulator's died with booking's JVM in chaos run seed 31), and an order must not wait on it for ever. The provider
 * answers with the attempt's webhook again; its webhook id is applied once, so an answer that crosses the original is
 * a harmless duplicate. Without a provider that listens (the simulator off, no real one wired), the attempt is logged.
 */
@Configuration(proxyBeanMethods = false)
class PaymentReconciliation extends PeriodicSweep {

    private static final Logger log = LoggerFactory.getLogger(PaymentReconciliation.class);
    private static final int BATCH = 200;

    private final OverduePayments overdue;
    private final PaymentReconciliationProperties properties;
    private final MeterRegistry meters;

    PaymentReconciliation(OverduePayments overdue, PaymentReconciliationProperties properties, MeterRegistry meters) {
        super("payment reconciliation", properties.reconcileInterval());
        this.overdue = overdue;
        this.properties = properties;
        this.meters = meters;
    }

    @Override
    protected void sweep() {
        List<PaymentOverdue> claimed;
        do {
            claimed = overdue.claim(properties.reconcileAfter(), BATCH);
            for (PaymentOverdue attempt : claimed) {
                log.info(
                        "payment attempt {} of order {} has had no outcome for over {}: asking the provider again (ask {})",
                        attempt.attemptId(),
                        attempt.orderId(),
                        properties.reconcileAfter(),
                        attempt.reconciliation());
            }
            meters.counter(Orders.PAYMENTS_METRIC + ".reconciled").increment(claimed.size());
        } while (claimed.size() >= BATCH);
    }
}
