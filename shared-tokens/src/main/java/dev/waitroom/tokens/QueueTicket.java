package dev.waitroom.tokens;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

/**
 * What a queue ticket proves (docs/design/architecture.md#the-edge-snapshot): this entry of this event holds this order key,
 * as of {@code issuedAt}. The codec keeps {@code issuedAt} to the millisecond.
 *
 * @param eventId  1..128 UTF-8 bytes, no control characters
 * @param entryId  1..128 UTF-8 bytes, no control characters
 * @param orderKey the server-assigned place in the event's order
 */
public record QueueTicket(String eventId, String entryId, long orderKey, Instant issuedAt) {

    static final int MAX_ID_BYTES = 128;

    public QueueTicket {
        requireId(eventId, "eventId");
        requireId(entryId, "entryId");
        Objects.requireNonNull(issuedAt, "issuedAt");
    }

    private static void requireId(String id, String name) {
        Objects.requireNonNull(id, name);
        if (id.isEmpty() || id.getBytes(StandardCharsets.UTF_8).length > MAX_ID_BYTES) {
            throw new IllegalArgumentException(name + " must be 1.." + MAX_ID_BYTES + " UTF-8 bytes");
        }
        for (int i = 0; i < id.length(); i++) {
            if (Character.isISOControl(id.charAt(i))) {
                throw new IllegalArgumentException(name + " must not contain control characters");
            }
        }
    }
}
