package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;

public class RegistryUnavailableException extends CoordinatorException {

    public RegistryUnavailableException(Throwable cause) {
        super(
                ProblemType.ADMISSION_UNAVAILABLE,
                "Admission is paused: the session registry is unavailable. Your place is kept.",
                cause);
    }
}
