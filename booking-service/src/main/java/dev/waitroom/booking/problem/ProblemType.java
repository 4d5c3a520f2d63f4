package dev.waitroom.booking.problem;

import java.net.URI;

import org.springframework.http.HttpStatus;

/** Every problem the booking service answers with: a stable {@code type} URI, a title and a status. */
public enum ProblemType {
    MALFORMED_REQUEST("malformed-request", "The request is malformed", HttpStatus.BAD_REQUEST),
    BODY_TOO_LARGE("body-too-large", "The request body is too large", HttpStatus.BAD_REQUEST),
    ADMISSION_REQUIRED("admission-required", "An admission token is required", HttpStatus.UNAUTHORIZED),
    ADMISSION_REJECTED("admission-rejected", "The admission token is not valid", HttpStatus.UNAUTHORIZED),
    ADMISSION_WRONG_EVENT("admission-wrong-event", "The admission token is for another event", HttpStatus.FORBIDDEN),
    ADMISSION_UNAVAILABLE("admission-unavailable", "Admission cannot be checked right now", HttpStatus.SERVICE_UNAVAILABLE),
    OPS_CREDENTIAL_REQUIRED("ops-credential-required", "A valid ops credential is required", HttpStatus.UNAUTHORIZED),
    WEBHOOK_SIGNATURE_INVALID("webhook-signature-invalid", "The webhook signature is missing or wrong", HttpStatus.UNAUTHORIZED),
    WEBHOOK_UNKNOWN_PAYMENT("webhook-unknown-payment", "The webhook names an unknown payment attempt", HttpStatus.UNPROCESSABLE_CONTENT),
    WEBHOOK_AMOUNT_MISMATCH("webhook-amount-mismatch", "The webhook amount differs from the payment attempt", HttpStatus.UNPROCESSABLE_CONTENT),
    SEATS_UNAVAILABLE("seats-unavailable", "One or more seats are not available", HttpStatus.CONFLICT),
    SEAT_LIMIT_REACHED("seat-limit-reached", "This shopping session holds or bought the most seats allowed", HttpStatus.CONFLICT),
    UNKNOWN_SEATS("unknown-seats", "One or more seats do not exist for this event", HttpStatus.UNPROCESSABLE_CONTENT),
    HOLD_NOT_FOUND("hold-not-found", "No such hold", HttpStatus.NOT_FOUND),
    HOLD_NOT_ACTIVE("hold-not-active", "The hold has expired or was released", HttpStatus.CONFLICT),
    HOLD_HAS_ORDER("hold-has-order", "The hold has an order under way", HttpStatus.CONFLICT),
    ORDER_NOT_FOUND("order-not-found", "No such order", HttpStatus.NOT_FOUND),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", "The Idempotency-Key was used for a different request", HttpStatus.UNPROCESSABLE_CONTENT),
    INVENTORY_CONFLICT("inventory-conflict", "The inventory change is not allowed", HttpStatus.CONFLICT),
    NOT_FOUND("not-found", "No such resource", HttpStatus.NOT_FOUND),
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", HttpStatus.METHOD_NOT_ALLOWED),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    INJECTED_FAULT("injected-fault", "Injected fault (ops fault injection is on)", HttpStatus.SERVICE_UNAVAILABLE),
    DATABASE_BUSY("database-busy", "The inventory database is busy; try again", HttpStatus.SERVICE_UNAVAILABLE),
    INTERNAL_ERROR("internal-error", "Internal error", HttpStatus.INTERNAL_SERVER_ERROR);

    private static final String BASE = "https://waitroom.dev/problems/";

    private final URI type;
    private final String title;
    private final HttpStatus status;

    ProblemType(String slug, String title, HttpStatus status) {
        this.type = URI.create(BASE + slug);
        this.title = title;
        this.status = status;
    }

    public URI type() {
        return type;
    }

    public String title() {
        return title;
    }

    public HttpStatus status() {
        return status;
    }
}
