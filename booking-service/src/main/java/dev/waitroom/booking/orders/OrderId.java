package dev.waitroom.booking.orders;

import java.util.Objects;
import java.util.UUID;

public record OrderId(UUID value) {

    public OrderId {
        Objects.requireNonNull(value, "order id");
    }

    public static OrderId random() {
        return new OrderId(UUID.randomUUID());
    }

    public static OrderId parse(String text) {
        if (text == null || text.length() != 36) {
            throw new IllegalArgumentException("malformed order id");
        }
        try {
            return new OrderId(UUID.fromString(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed order id");
        }
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
