package dev.waitroom.booking.faults;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Every fault-injection bean carries this: {@code waitroom.booking.faults.enabled=false} leaves the service without
 * any of them (no gate in front of the pool, no filter, no ops route). On unless switched off, as it always was.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ConditionalOnProperty(name = "waitroom.booking.faults.enabled", havingValue = "true", matchIfMissing = true)
public @interface ConditionalOnFaultInjection {}
