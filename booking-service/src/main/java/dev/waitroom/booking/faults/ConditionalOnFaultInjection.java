package dev.waitroom.booking.faults;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Every fault-injection bean carries this: fault injection is a test double and exists only when switched on with
 * {@code waitroom.booking.faults.enabled=true}; otherwise the service has none of it (no gate in front of the pool, no
 * filter, no ops route).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ConditionalOnProperty(name = "waitroom.booking.faults.enabled", havingValue = "true")
public @interface ConditionalOnFaultInjection {}
