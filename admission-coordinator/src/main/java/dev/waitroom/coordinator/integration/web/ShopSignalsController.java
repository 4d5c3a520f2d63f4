package dev.waitroom.coordinator.integration.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.coordinator.PurchaseCompleted;
import dev.waitroom.coordinator.categories.SeatCategoryIntake;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.SoldOutCategories;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.GrantState;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.integration.IntegrationCredentials;
import dev.waitroom.coordinator.integration.IntegrationSecret;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The shop signals (docs/integration/shop-signals.md): what a shop tells Waitroom about its buyers, through the
 * gateway, with an integration credential of the event ({@code Authorization: Bearer wric_...}) and nothing else: an
 * ops token or the internal credential alone is not one. Every signal is idempotent and answered with what is true
 * after it; the internal routes booking calls ({@code /internal/**}) do the same work behind the internal credential.
 */
@RestController
class ShopSignalsController {

    /** The challenge of a 401: RFC 6750's, with {@code invalid_token} when a credential was presented and refused. */
    static final String CHALLENGE = "Bearer realm=\"waitroom-signals\"";

    private final IntegrationCredentials credentials;

    private final Admissions admissions;

    private final EventManagement events;

    private final SeatCategoryIntake categories;

    private final SoldOutCategories soldOutCategories;

    ShopSignalsController(
            IntegrationCredentials credentials,
            Admissions admissions,
            EventManagement events,
            SeatCategoryIntake categories,
            SoldOutCategories soldOutCategories) {
        this.credentials = credentials;
        this.admissions = admissions;
        this.events = events;
        this.categories = categories;
        this.soldOutCategories = soldOutCategories;
    }

    record PurchaseCompletedSignal(String sessionId, String orderId) {}

    record SessionReleaseSignal(String sessionId) {}

    record SoldOutSignal(String category, String reason) {}

    /** The answer to a session's signal: the session and its state after the signal. */
    record SessionAnswer(String signal, String eventId, String sessionId, String state, boolean live) {}

    /** The answer to a sold-out signal: the event's mode and its sold-out categories after it. */
    record SoldOutAnswer(String signal, String eventId, String category, String mode, List<String> soldOutCategories) {}

    @PostMapping("/events/{eventId}/signals/purchase-completed")
    SessionAnswer purchaseCompleted(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.AUTHORIZATION, required = false) String authorization,
            @RequestBody(required = false) PurchaseCompletedSignal body) {
        IntegrationCredentials.Checked credential = authenticate(eventId, authorization);
        EventId event = EventId.of(eventId);
        PurchaseCompletedSignal signal = body == null ? new PurchaseCompletedSignal(null, null) : body;
        SessionId session = session(signal.sessionId());
        String orderId = TextFields.required("orderId", signal.orderId(), PurchaseCompleted.MAX_ORDER_ID);
        GrantState state = this.admissions.purchaseCompleted(event, session, orderId);
        this.credentials.recordUse(credential);
        return answer("purchase-completed", event, session, state);
    }

    @PostMapping("/events/{eventId}/signals/session-release")
    SessionAnswer sessionRelease(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.AUTHORIZATION, required = false) String authorization,
            @RequestBody(required = false) SessionReleaseSignal body) {
        IntegrationCredentials.Checked credential = authenticate(eventId, authorization);
        EventId event = EventId.of(eventId);
        SessionId session = session(body == null ? null : body.sessionId());
        GrantState state = this.admissions.releaseSession(event, session);
        this.credentials.recordUse(credential);
        return answer("session-release", event, session, state);
    }

    @PostMapping("/events/{eventId}/signals/sold-out")
    SoldOutAnswer soldOut(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.AUTHORIZATION, required = false) String authorization,
            @RequestBody(required = false) SoldOutSignal body) {
        IntegrationCredentials.Checked credential = authenticate(eventId, authorization);
        EventId event = EventId.of(eventId);
        SoldOutSignal signal = body == null ? new SoldOutSignal(null, null) : body;
        String reason = Optional.ofNullable(TextFields.optional("reason", signal.reason(), 200))
                .orElse("the shop reports no seat left");
        if (signal.category() == null) {
            Event changed = this.events.changeMode(
                    event, OperatingMode.SOLD_OUT, "integration:" + credential.credentialId(), reason);
            this.credentials.recordUse(credential);
            return new SoldOutAnswer(
                    "sold-out", event.value(), null, changed.mode().name(), this.soldOutCategories.of(event));
        }
        List<String> soldOut = this.categories.markSoldOut(event, signal.category());
        this.credentials.recordUse(credential);
        Event current = this.events.get(event);
        return new SoldOutAnswer(
                "sold-out", event.value(), signal.category(), current.mode().name(), soldOut);
    }

    /** A refusal of the credential, answered with its challenge. */
    static final class CredentialRefusedException extends CoordinatorException {

        private static final long serialVersionUID = 1L;

        private final transient String challenge;

        CredentialRefusedException(ProblemType problem, String message, String challenge) {
            super(problem, message);
            this.challenge = challenge;
        }
    }

    @ExceptionHandler(CredentialRefusedException.class)
    ResponseEntity<ProblemDetail> refused(CredentialRefusedException e, HttpServletRequest request) {
        ResponseEntity.BodyBuilder answer = ProblemResponses.builder(e.problem());
        if (e.challenge != null) {
            answer.header(HttpHeaders.WWW_AUTHENTICATE, e.challenge);
        }
        return answer.body(ProblemResponses.detail(e.problem(), e.getMessage(), request));
    }

    /** The accepted credential when the request carries a live credential of {@code eventId}; refused otherwise. */
    private IntegrationCredentials.Checked authenticate(String eventId, String authorization) {
        Optional<IntegrationSecret> presented = bearer(authorization).flatMap(IntegrationSecret::parse);
        IntegrationCredentials.Checked check = this.credentials.check(eventId, presented);
        return switch (check.outcome()) {
            case ACCEPTED -> check;
            case MISSING ->
                throw new CredentialRefusedException(
                        ProblemType.INTEGRATION_CREDENTIAL_REQUIRED,
                        "Shop signals need the event's integration credential: Authorization: Bearer wric_...",
                        CHALLENGE);
            case NOT_ACCEPTED ->
                throw new CredentialRefusedException(
                        ProblemType.INTEGRATION_CREDENTIAL_REQUIRED,
                        "The integration credential is unknown, revoked or wrong.",
                        CHALLENGE + ", error=\"invalid_token\"");
            case OTHER_EVENT ->
                throw new CredentialRefusedException(
                        ProblemType.INTEGRATION_CREDENTIAL_FORBIDDEN,
                        "The integration credential belongs to another event.",
                        null);
        };
    }

    private static Optional<String> bearer(String authorization) {
        String prefix = Headers.BEARER_PREFIX;
        if (authorization == null || !authorization.regionMatches(true, 0, prefix, 0, prefix.length())) {
            return Optional.empty();
        }
        return Optional.of(authorization.substring(prefix.length()).strip());
    }

    private static SessionId session(String sessionId) {
        if (sessionId == null || sessionId.isBlank()) {
            throw new CoordinatorException(ProblemType.INVALID_SESSION_ID, "sessionId is required.");
        }
        try {
            return SessionId.parse(sessionId);
        } catch (IllegalArgumentException ex) {
            throw new CoordinatorException(ProblemType.INVALID_SESSION_ID, "Session ids are UUIDs.");
        }
    }

    private static SessionAnswer answer(String signal, EventId event, SessionId session, GrantState state) {
        return new SessionAnswer(
                signal, event.value(), session.value().toString(), state.name(), state == GrantState.ACTIVE);
    }
}
