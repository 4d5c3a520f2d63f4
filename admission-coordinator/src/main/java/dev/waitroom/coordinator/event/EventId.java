package dev.waitroom.coordinator.event;

import java.util.regex.Pattern;

import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;

/** An event identifier: 1-64 chars of letters, digits, '_' and '-' (the queue service's rule) (safe inside a Redis hash tag). */
public record EventId(String value) {

	private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

	public EventId {
		if (value == null || !VALID.matcher(value).matches()) {
			throw new CoordinatorException(ProblemKind.INVALID, "invalid-event-id",
					"Event ids are 1-64 letters, digits, '_' or '-', starting with a letter or digit.");
		}
	}

	public static EventId of(String value) {
		return new EventId(value);
	}

	@Override
	public String toString() {
		return this.value;
	}

}
