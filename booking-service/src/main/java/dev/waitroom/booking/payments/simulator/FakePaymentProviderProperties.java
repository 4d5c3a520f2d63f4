package dev.waitroom.booking.payments.simulator;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The in-process fake payment provider (only with {@code waitroom.payments.fake.enabled=true}).
 *
 * @param outcome    what it reports for every payment: SUCCEED, FAIL, or MANUAL (it never calls; something else
 *                   posts the webhooks, e.g. a test or an operator)
 * @param delay      how long after the order it calls back
 * @param webhookUrl where it posts; default this service's own {@code /webhooks/payments}
 */
@ConfigurationProperties("waitroom.payments.fake")
@ConditionalOnFakePaymentProvider
record FakePaymentProviderProperties(
        @DefaultValue("SUCCEED") Behaviour outcome,
        @DefaultValue("2s") Duration delay,
        URI webhookUrl) {

    FakePaymentProviderProperties {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("waitroom.payments.fake.delay must not be negative");
        }
    }

    enum Behaviour {
        SUCCEED,
        FAIL,
        MANUAL
    }
}
