package dev.waitroom.booking.orders;

import java.util.Objects;
import java.util.UUID;

/** One attempt to take payment for an order; the provider's webhooks name it. */
public record PaymentAttemptId(UUID value) {

    public PaymentAttemptId {
        Objects.requireNonNull(value, "payment attempt id");
    }

    public static PaymentAttemptId random() {
        return new PaymentAttemptId(UUID.randomUUID());
    }

    public static PaymentAttemptId parse(String text) {
        if (text == null || text.length() != 36) {
            throw new IllegalArgumentException("malformed payment attempt id");
        }
        try {
            return new PaymentAttemptId(UUID.fromString(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed payment attempt id");
        }
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
