package dev.waitroom.gateway.events;

import dev.waitroom.contract.queue.QueueSnapshot;
import java.time.Duration;
import java.time.Instant;

/** A snapshot of the queue-service ({@link QueueSnapshot}) and the gateway-clock instant it was fetched. */
public record TimedSnapshot(QueueSnapshot snapshot, Instant fetchedAt) {

    public Duration ageAt(Instant now) {
        Duration age = Duration.between(fetchedAt, now);
        return age.isNegative() ? Duration.ZERO : age;
    }
}
