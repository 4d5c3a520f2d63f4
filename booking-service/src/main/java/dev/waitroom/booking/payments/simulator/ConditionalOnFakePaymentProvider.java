package dev.waitroom.booking.payments.simulator;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Every bean of the payment simulator carries this: the simulator is a test double and exists only when switched on
 * with {@code waitroom.payments.fake.enabled=true} (the shop page then says that payments are simulated); otherwise
 * the service has none of it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ConditionalOnProperty(name = "waitroom.payments.fake.enabled", havingValue = "true")
public @interface ConditionalOnFakePaymentProvider {}
