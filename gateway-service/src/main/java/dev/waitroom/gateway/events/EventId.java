package dev.waitroom.gateway.events;

import java.util.Optional;
import java.util.regex.Pattern;

/** An event id as it appears in public paths: 1-128 characters of letters, digits, '-', '_' or '.'. */
public record EventId(String value) {

	private static final Pattern FORMAT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

	public EventId {
		if (value == null || !FORMAT.matcher(value).matches()) {
			throw new IllegalArgumentException("malformed event id");
		}
	}

	public static Optional<EventId> parse(String value) {
		return (value != null && FORMAT.matcher(value).matches()) ? Optional.of(new EventId(value)) : Optional.empty();
	}

	@Override
	public String toString() {
		return value;
	}

}
