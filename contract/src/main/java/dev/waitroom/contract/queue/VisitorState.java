package dev.waitroom.contract.queue;

import java.util.Optional;

/**
 * The entry states a visitor's status names in {@link QueueStatus#state()}, as the queue-service writes them (its
 * entry lifecycle, docs/design/architecture.md#queue-entry). A reader that must act on one state decodes it here
 * rather than comparing strings; a name it does not know (a newer queue-service's) reads as empty, never as an error.
 */
public enum VisitorState {
    WAITING,
    OFFERED,
    ACTIVE,
    COMPLETED,
    LEFT,
    EXPIRED;

    /** The state a status names; empty when it names none this side knows. */
    public static Optional<VisitorState> of(QueueStatus status) {
        for (VisitorState state : values()) {
            if (state.name().equals(status.state())) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }
}
