package dev.waitroom.booking.orders;

import java.util.regex.Pattern;

/** The client's {@code Idempotency-Key}: 1-100 characters of letters, digits, '.', '_', ':' or '-'. */
public record IdempotencyKey(String value) {

    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

    public IdempotencyKey {
        if (value == null || !SHAPE.matcher(value).matches()) {
            throw new IllegalArgumentException("malformed Idempotency-Key");
        }
    }

    @Override
    public String toString() {
        return "IdempotencyKey[***]";
    }
}
