package dev.waitroom.queue.contract;

import java.net.URI;

/** Every problem the queue service answers with, each with a stable type URI and HTTP status. */
public enum Problem {
    MALFORMED(400, "malformed-request", "Malformed request"),
    BODY_TOO_LARGE(413, "body-too-large", "Request body too large"),
    FORBIDDEN(403, "internal-credential-required", "Internal credential required"),
    MISSING_VISITOR(400, "visitor-required", "Visitor identity required"),
    UNKNOWN_EVENT(404, "unknown-event", "Unknown event"),
    NOT_IN_QUEUE(404, "not-in-queue", "Not in the queue"),
    UNKNOWN_ENTRY(404, "unknown-entry", "Unknown queue entry"),
    EVENT_ENDED(410, "event-ended", "The sale has ended"),
    SOLD_OUT(409, "sold-out", "The event is sold out"),
    STATE_CONFLICT(409, "state-conflict", "The entry is not in a state that allows this"),
    GRANT_MISMATCH(409, "grant-mismatch", "The entry is not held by this grant"),
    PHASE_CONFLICT(409, "phase-conflict", "The event phase cannot go back"),
    STALE_GENERATION(409, "stale-generation", "An older sale generation"),
    DRAW_NOT_ALLOWED(409, "draw-not-allowed", "The draw cannot run now"),
    SEED_MISMATCH(409, "seed-mismatch", "The seed does not match the draw"),
    DRAW_INCOMPLETE(409, "draw-incomplete", "The pre-sale draw has not completed"),
    STORE_UNAVAILABLE(503, "queue-store-unavailable", "The queue is temporarily unavailable");

    private static final String BASE = "https://waitroom.dev/problems/";

    private final int status;
    private final URI type;
    private final String title;

    Problem(int status, String slug, String title) {
        this.status = status;
        this.type = URI.create(BASE + slug);
        this.title = title;
    }

    public int status() {
        return status;
    }

    public URI type() {
        return type;
    }

    public String title() {
        return title;
    }
}
