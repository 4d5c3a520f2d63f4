package dev.waitroom.contract.queue;

/**
 * Body of {@code POST /internal/events/{eventId}/entries/{entryId}/transition} ({@link QueuePaths#TRANSITION}).
 * {@code to} and {@code grantId} are Strings the queue-service reads itself ({@link #target()}; the grant format as
 * in {@link Offer}) and answers with its malformed-request problem.
 */
public record EntryTransition(String to, String grantId) {

    public static EntryTransition of(TransitionTarget to, String grantId) {
        return new EntryTransition(to.name(), grantId);
    }

    /** The target; missing or unknown is a {@link dev.waitroom.contract.MalformedValueException}. */
    public TransitionTarget target() {
        return TransitionTarget.parse(to);
    }
}
