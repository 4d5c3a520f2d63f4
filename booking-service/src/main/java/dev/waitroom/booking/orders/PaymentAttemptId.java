package dev.waitroom.booking.orders;

import dev.waitroom.booking.CanonicalUuid;
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

    /** Parses the canonical UUID form; anything else is malformed. */
    public static PaymentAttemptId parse(String text) {
        return new PaymentAttemptId(CanonicalUuid.parse(text, "payment attempt id"));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
