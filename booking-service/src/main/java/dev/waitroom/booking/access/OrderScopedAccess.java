package dev.waitroom.booking.access;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a shop route that an expired admission token of the same session may still use (within the grace
 * period): the handler receives a {@link Shopper} with scope {@code ORDER_STATUS_ONLY} and must check that the
 * order's payment is under way or done.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OrderScopedAccess {}
