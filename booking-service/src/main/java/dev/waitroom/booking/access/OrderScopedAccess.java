package dev.waitroom.booking.access;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a shop route that an {@code order-status} admission may still use (the gateway's verdict for a token expired
 * within its grace, or of a session no longer live), or a {@code shopping} one of an older sale generation: the
 * handler receives a {@link Shopper} with scope {@code ORDER_STATUS_ONLY} and must check that the order is that
 * session's.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OrderScopedAccess {}
