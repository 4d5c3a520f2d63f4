package dev.waitroom.gateway.events;

import java.time.Duration;
import java.time.Instant;

/** A snapshot and the gateway-clock instant it was fetched. */
public record TimedSnapshot(EventSnapshot snapshot, Instant fetchedAt) {

	public Duration ageAt(Instant now) {
		Duration age = Duration.between(fetchedAt, now);
		return age.isNegative() ? Duration.ZERO : age;
	}

}
