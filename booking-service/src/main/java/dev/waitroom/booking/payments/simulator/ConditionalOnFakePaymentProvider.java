package dev.waitroom.booking.payments.simulator;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Every bean of the payment simulator carries this: {@code waitroom.payments.fake.enabled=false} leaves the service
 * without any of them. On unless switched off, as it always was (there is no real provider yet).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ConditionalOnProperty(name = "waitroom.payments.fake.enabled", havingValue = "true", matchIfMissing = true)
public @interface ConditionalOnFakePaymentProvider {}
