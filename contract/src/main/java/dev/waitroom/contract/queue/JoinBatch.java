package dev.waitroom.contract.queue;

import java.util.List;

/**
 * Body of {@code POST /internal/events/{eventId}/joins} ({@link QueuePaths#JOINS}): the joins one gateway collected for
 * the event within a few milliseconds, in the order they arrived there; each is what a single forwarded join carries
 * (docs/reference/contracts.md#batched-joins). The queue-service applies them in this order, one Lua call for the batch, and
 * answers one {@link JoinResult} per join, in the same order ({@link JoinResults}).
 */
public record JoinBatch(List<Join> joins) {

    /** Joins per batch at most; a larger batch is refused 413. */
    public static final int MAX_JOINS = 256;

    /**
     * Bytes of a batch on the wire at most, by {@link #wireBytes}: the gateway closes a batch before the next join would
     * pass it, so a batch stays inside the queue-service's 16 KiB body limit (about 170 joins without an account).
     */
    public static final int MAX_BYTES = 15_000;

    /**
     * Bytes of one join's request body at most in a batch (the waiting page sends {@code {}}); the gateway forwards a
     * join with a longer body on its own, as before batching, so a full batch stays inside the queue-service's body
     * limit.
     */
    public static final int MAX_BODY_CHARS = 64;

    /**
     * One visitor's join as the gateway verified it.
     *
     * @param visitor the verified visitor id ({@code X-Waitroom-Visitor} of a single join)
     * @param account the verified account, or null ({@code X-Waitroom-Account})
     * @param accountProblem why a presented sign-in token gave no account, or null ({@code X-Waitroom-Account-Problem})
     * @param body the join's request body as the browser sent it, or null when it had none
     */
    public record Join(String visitor, String account, String accountProblem, String body) {

        /**
         * At least the bytes this join takes in a batch's JSON: the member names and punctuation, its values, and each
         * character of the body twice (a quote or a backslash is escaped; a body with a control character is never
         * batched).
         */
        public int wireBytes() {
            return 64 + length(visitor) + length(account) + length(accountProblem) + 2 * length(body);
        }

        /**
         * Whether this join may travel in a batch: a body of at most {@link #MAX_BODY_CHARS} characters, none of them a
         * control character, and values whose UTF-8 is one byte a character (anything else goes on its own).
         */
        public boolean batchable() {
            return fits(visitor, 64) && fits(account, 128) && fits(accountProblem, 32) && fits(body, MAX_BODY_CHARS);
        }

        private static boolean fits(String value, int maxChars) {
            if (value == null) {
                return true;
            }
            if (value.length() > maxChars) {
                return false;
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < 0x20 || c > 0x7e) {
                    return false;
                }
            }
            return true;
        }

        private static int length(String value) {
            return value == null ? 0 : value.length();
        }
    }
}
