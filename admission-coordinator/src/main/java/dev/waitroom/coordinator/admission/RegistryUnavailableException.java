package dev.waitroom.coordinator.admission;

import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;

public class RegistryUnavailableException extends CoordinatorException {

	public RegistryUnavailableException(Throwable cause) {
		super(ProblemKind.UNAVAILABLE, "admission-unavailable",
				"Admission is paused: the session registry is unavailable. Your place is kept.");
		initCause(cause);
	}

}
