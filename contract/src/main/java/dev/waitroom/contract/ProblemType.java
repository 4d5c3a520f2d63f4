package dev.waitroom.contract;

import java.net.URI;
import java.util.Optional;

/**
 * Every problem any service answers with (RFC 9457 {@code application/problem+json}): a stable {@code type} URI
 * ({@code https://waitroom.dev/problems/<slug>}), a title and an HTTP status. One catalogue, so the same failure has the
 * same type whichever service answers it.
 */
public enum ProblemType {

    // Any service
    MALFORMED_REQUEST(400, "malformed-request", "Malformed request"),
    BAD_PATH(400, "bad-path", "Path not accepted"),
    NOT_FOUND(404, "not-found", "No such resource"),
    METHOD_NOT_ALLOWED(405, "method-not-allowed", "Method not allowed"),
    NOT_ACCEPTABLE(406, "not-acceptable", "Not acceptable"),
    BODY_TOO_LARGE(413, "body-too-large", "Request body too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "Unsupported media type"),
    RATE_LIMITED(429, "rate-limited", "Too many requests"),
    INTERNAL_CREDENTIAL_REQUIRED(403, "internal-credential-required", "Internal credential required"),
    CALLER_NOT_ALLOWED(403, "caller-not-allowed", "This service may not call this route"),
    OPS_CREDENTIAL_REQUIRED(401, "ops-credential-required", "Ops credential required"),
    INTERNAL_ERROR(500, "internal-error", "Unexpected error"),
    UNAVAILABLE(503, "unavailable", "Service temporarily unavailable"),
    UPSTREAM_UNAVAILABLE(503, "upstream-unavailable", "Service temporarily unavailable"),
    UPSTREAM_TIMEOUT(504, "upstream-timeout", "Service did not answer in time"),
    OPERATOR_FORBIDDEN(403, "operator-forbidden", "Not allowed for this operator's role"),

    // Abuse resistance (gateway, queue)
    CLIENT_RATE_LIMITED(429, "client-rate-limited", "Too many requests from this network address"),
    JOINS_THROTTLED(503, "joins-throttled", "Too many people are joining this second"),
    QUEUE_STORE_FULL(503, "queue-store-full", "The queue is full for now"),
    PROOF_OF_WORK_REQUIRED(403, "proof-of-work-required", "A solved join challenge is required"),
    PROOF_OF_WORK_INVALID(403, "proof-of-work-invalid", "The join challenge solution is not accepted"),
    PROOF_OF_WORK_REPLAYED(403, "proof-of-work-replayed", "The join challenge solution was used already"),

    // Accounts (gateway, coordinator, queue): docs/integration/accounts.md
    SIGN_IN_REQUIRED(401, "sign-in-required", "This sale asks you to sign in"),
    ACCOUNT_TOKEN_INVALID(401, "account-token-invalid", "The sign-in token is not accepted"),
    ACCOUNT_SCOPE_UNAVAILABLE(422, "account-scope-unavailable", "Account-scoped events need an identity provider"),

    // Admission tokens and sessions (gateway, booking, coordinator)
    ADMISSION_TOKEN_REQUIRED(401, "admission-token-required", "Admission token required"),
    ADMISSION_TOKEN_INVALID(401, "admission-token-invalid", "Admission token not accepted"),
    ADMISSION_TOKEN_EXPIRED(401, "admission-token-expired", "Admission token expired"),
    ADMISSION_SESSION_ENDED(401, "admission-session-ended", "Shopping session no longer live"),
    ADMISSION_WRONG_EVENT(403, "admission-wrong-event", "Admission token is for another event"),
    ADMISSION_OLD_GENERATION(403, "admission-old-generation", "Admission token is from an earlier sale"),
    ADMISSION_VISITOR_MISMATCH(403, "admission-visitor-mismatch", "Admission token belongs to another visitor"),
    ADMISSION_UNAVAILABLE(503, "admission-unavailable", "Admission is temporarily unavailable"),
    /**
     * A protected request at an origin without a valid {@code Waitroom-Admission} header for it (the verifier
     * libraries' refusal, {@code reason} says why: docs/integration/admission-header.md).
     */
    ADMISSION_HEADER_INVALID(401, "admission-header-invalid", "Waitroom admission required"),

    // Events (coordinator, queue)
    INVALID_EVENT_ID(400, "invalid-event-id", "Malformed event id"),
    INVALID_EVENT_CONFIG(400, "invalid-event-config", "Event configuration not accepted"),
    // An event's closing time and planned windows (coordinator): docs/operating/schedules-and-pauses.md
    INVALID_SCHEDULE(400, "invalid-schedule", "Schedule not accepted"),
    // Routes per event (coordinator): docs/integration/gateway-in-front.md
    BAD_ROUTE(400, "bad-route", "Protected path not accepted"),
    BAD_ORIGIN(400, "bad-origin", "Origin not accepted"),
    ROUTE_CONFLICT(409, "route-conflict", "Protected path taken"),
    BAD_ALLOW_RULE(400, "bad-allow-rule", "Allow rule not accepted"),
    PASS_INVALID(401, "pass-invalid", "The pass is not valid"),
    PASS_EXPIRED(401, "pass-expired", "The pass has expired"),
    PASS_REVOKED(401, "pass-revoked", "The pass was revoked"),
    PASS_OTHER_EVENT(403, "pass-other-event", "The pass is for another event"),
    PASS_USED_UP(409, "pass-used-up", "The pass has been used as often as it may"),
    PASS_NOT_NEEDED(409, "pass-not-needed", "This visitor already holds an offer or a session of the event"),
    PASS_NOT_FOUND(404, "pass-not-found", "No such pass"),
    AT_CEILING(503, "at-ceiling", "The event is at its ceiling of shopping sessions; try again shortly"),
    INVALID_ANNOUNCEMENT(400, "invalid-announcement", "Announcement not accepted"),
    UNKNOWN_EVENT(404, "unknown-event", "Unknown event"),
    EVENT_EXISTS(409, "event-exists", "The event exists already"),
    INVALID_TRANSITION(409, "invalid-transition", "The event cannot move to that state"),
    RULE_FROZEN(409, "rule-frozen", "The sale's published rule cannot change any more"),
    EVENT_ENDED(410, "event-ended", "The sale has ended"),
    SOLD_OUT(409, "sold-out", "The event is sold out"),

    // The seller's page (coordinator): docs/operating/the-sellers-page.md
    PAGE_TOO_LARGE(413, "page-too-large", "The page design is too large"),
    PAGE_MARKUP_REFUSED(422, "page-markup-refused", "The page template has markup or syntax that is not allowed"),
    PAGE_IMAGE_HOST_REFUSED(422, "page-image-host-refused", "An image of the page is not from an allowed host"),
    PAGE_TEXT_REFUSED(422, "page-text-refused", "A text of the page is not accepted"),
    PAGE_COLOUR_REFUSED(422, "page-colour-refused", "A colour of the page is not accepted"),

    // Queue entries, offers and the draw (queue, coordinator)
    VISITOR_REQUIRED(400, "visitor-required", "Visitor identity required"),
    INVALID_VISITOR(400, "invalid-visitor", "Malformed visitor id"),
    NOT_IN_QUEUE(404, "not-in-queue", "Not in the queue"),
    UNKNOWN_ENTRY(404, "unknown-entry", "Unknown queue entry"),
    STATE_CONFLICT(409, "state-conflict", "The entry is not in a state that allows this"),
    GRANT_MISMATCH(409, "grant-mismatch", "The entry is not held by this grant"),
    PHASE_CONFLICT(409, "phase-conflict", "The event phase cannot go back"),
    STALE_GENERATION(409, "stale-generation", "An older sale generation"),
    DRAW_NOT_ALLOWED(409, "draw-not-allowed", "The draw cannot run now"),
    SEED_MISMATCH(409, "seed-mismatch", "The seed does not match the draw"),
    DRAW_INCOMPLETE(409, "draw-incomplete", "The pre-sale draw has not completed"),
    QUEUE_STORE_UNAVAILABLE(503, "queue-store-unavailable", "The queue is temporarily unavailable"),
    QUEUE_UNAVAILABLE(503, "queue-unavailable", "The queue service cannot be reached"),
    QUEUE_REJECTED(409, "queue-rejected", "The queue service refused the change"),

    // Claims and shopping sessions (coordinator)
    NO_OFFER(409, "no-offer", "No offer to claim"),
    OFFER_EXPIRED(410, "offer-expired", "The offer expired"),
    ADMISSION_PAUSED(503, "admission-paused", "Admission is paused; the offer is held"),
    NO_LIVE_SESSION(409, "no-live-session", "No live shopping session"),
    SESSION_ENDED(409, "session-ended", "The shopping session has ended"),
    SESSION_NOT_FOUND(404, "session-not-found", "No such shopping session"),
    INVALID_SESSION_ID(400, "invalid-session-id", "Malformed session id"),
    INVALID_HEALTH_REPORT(400, "invalid-health-report", "Health report not accepted"),
    OFFER_CLAIMED(409, "offer-claimed", "The offer was claimed by another browser identity"),
    OTHER_REGION(409, "other-region", "The offer or session belongs to another region"),

    // Lanes and access codes (coordinator, queue): docs/operating/lanes-and-access-codes.md
    INVALID_LANES(400, "invalid-lanes", "Lanes not accepted"),
    UNKNOWN_LANE(404, "unknown-lane", "The event has no such lane"),
    CODE_INVALID(403, "code-invalid", "The access code is not accepted"),
    CODE_EXPIRED(410, "code-expired", "The access code has expired"),
    CODE_REVOKED(410, "code-revoked", "The access code was revoked"),
    CODE_USED_UP(409, "code-used-up", "The access code has no uses left"),

    // Shop signals and their integration credentials (coordinator): docs/integration/shop-signals.md
    INTEGRATION_CREDENTIAL_REQUIRED(
            401, "integration-credential-required", "An integration credential of the event is required"),
    INTEGRATION_CREDENTIAL_FORBIDDEN(
            403, "integration-credential-forbidden", "The integration credential is for another event"),
    INTEGRATION_CREDENTIAL_LIMIT(
            409, "integration-credential-limit", "The event has the most live integration credentials already"),
    INTEGRATION_CREDENTIAL_NOT_FOUND(404, "integration-credential-not-found", "No such integration credential"),

    // The shop (booking)
    WEBHOOK_SIGNATURE_INVALID(401, "webhook-signature-invalid", "The webhook signature is missing or wrong"),
    WEBHOOK_UNKNOWN_PAYMENT(422, "webhook-unknown-payment", "The webhook names an unknown payment attempt"),
    WEBHOOK_AMOUNT_MISMATCH(422, "webhook-amount-mismatch", "The webhook amount differs from the payment attempt"),
    SEATS_UNAVAILABLE(409, "seats-unavailable", "One or more seats are not available"),
    SEAT_LIMIT_REACHED(409, "seat-limit-reached", "This shopping session holds or bought the most seats allowed"),
    UNKNOWN_SEATS(422, "unknown-seats", "One or more seats do not exist for this event"),
    HOLD_NOT_FOUND(404, "hold-not-found", "No such hold"),
    HOLD_NOT_ACTIVE(409, "hold-not-active", "The hold has expired or was released"),
    HOLD_HAS_ORDER(409, "hold-has-order", "The hold has an order under way"),
    ORDER_NOT_FOUND(404, "order-not-found", "No such order"),
    IDEMPOTENCY_KEY_REUSED(422, "idempotency-key-reused", "The Idempotency-Key was used for a different request"),
    INVENTORY_CONFLICT(409, "inventory-conflict", "The inventory change is not allowed"),
    INJECTED_FAULT(503, "injected-fault", "Injected fault (ops fault injection is on)"),
    DATABASE_BUSY(503, "database-busy", "The database is busy; try again");

    public static final String BASE = "https://waitroom.dev/problems/";

    private final int status;
    private final String slug;
    private final URI type;
    private final String title;

    ProblemType(int status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.type = URI.create(BASE + slug);
        this.title = title;
    }

    /** The HTTP status it is answered with. */
    public int status() {
        return status;
    }

    /** The last segment of the type URI, stable across releases. */
    public String slug() {
        return slug;
    }

    /** The RFC 9457 {@code type}. */
    public URI type() {
        return type;
    }

    public String title() {
        return title;
    }

    /**
     * The generic problem for a status a framework answers by itself (no route, wrong method, body too large, ...),
     * empty for a status no generic problem covers.
     */
    public static Optional<ProblemType> forStatus(int status) {
        return Optional.ofNullable(
                switch (status) {
                    case 400 -> MALFORMED_REQUEST;
                    case 404 -> NOT_FOUND;
                    case 405 -> METHOD_NOT_ALLOWED;
                    case 406 -> NOT_ACCEPTABLE;
                    case 413 -> BODY_TOO_LARGE;
                    case 415 -> UNSUPPORTED_MEDIA_TYPE;
                    case 429 -> RATE_LIMITED;
                    case 500 -> INTERNAL_ERROR;
                    case 503 -> UNAVAILABLE;
                    case 504 -> UPSTREAM_TIMEOUT;
                    default -> null;
                });
    }
}
