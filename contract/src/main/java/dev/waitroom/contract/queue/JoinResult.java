package dev.waitroom.contract.queue;

/**
 * One join's answer in {@link JoinResults}: what the queue-service would have answered that join alone.
 *
 * @param status the HTTP status (201 new entry, 200 existing, a problem's status)
 * @param ticket the queue ticket ({@code X-Waitroom-Ticket}) for a waiting entry, or null
 * @param visitor the visitor id an account's place is bound to ({@code X-Waitroom-Visitor}), or null
 * @param retryAfterSeconds {@code Retry-After} of a problem a retry may overcome, or null
 * @param body the answer's JSON document as it would have been sent: the visitor's status ({@link QueueStatus}), or an
 *     RFC 9457 problem when {@code status} is 400 or above
 */
public record JoinResult(int status, String ticket, String visitor, Long retryAfterSeconds, String body) {

    /** A problem document, not a status. */
    public boolean problem() {
        return status >= 400;
    }
}
