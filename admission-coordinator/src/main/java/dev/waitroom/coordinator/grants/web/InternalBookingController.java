package dev.waitroom.coordinator.grants.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.contract.coordinator.PurchaseCompleted;
import dev.waitroom.contract.coordinator.PurchaseCompletedResult;
import dev.waitroom.contract.coordinator.SoldOut;
import dev.waitroom.contract.coordinator.SoldOutResult;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.GrantState;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.problems.CoordinatorException;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** What booking tells the coordinator (CONTRACTS: "coordinator internal API"), in the contract's records. */
@RestController
class InternalBookingController {

    private final Admissions admissions;

    private final EventManagement events;

    InternalBookingController(Admissions admissions, EventManagement events) {
        this.admissions = admissions;
        this.events = events;
    }

    @PostMapping(CoordinatorPaths.SOLD_OUT)
    SoldOutResult soldOut(@PathVariable String eventId, @RequestBody(required = false) SoldOut body) {
        String reason = (body == null ? new SoldOut(null) : body).reasonOrDefault();
        Event event = this.events.changeMode(EventId.of(eventId), OperatingMode.SOLD_OUT, "booking", reason);
        return new SoldOutResult(event.id().value(), event.mode());
    }

    @PostMapping(CoordinatorPaths.PURCHASE_COMPLETED)
    PurchaseCompletedResult purchaseCompleted(
            @PathVariable String eventId, @PathVariable String sessionId, @RequestBody PurchaseCompleted body) {
        SessionId session;
        try {
            session = SessionId.parse(sessionId);
        } catch (IllegalArgumentException ex) {
            throw new CoordinatorException(ProblemType.INVALID_SESSION_ID, "Session ids are UUIDs.");
        }
        // the order id is stored with the grant: plain text only (a NUL reached PostgreSQL and answered 503)
        String orderId = TextFields.required("orderId", body.validated().orderId(), PurchaseCompleted.MAX_ORDER_ID);
        GrantState state = this.admissions.purchaseCompleted(EventId.of(eventId), session, orderId);
        return new PurchaseCompletedResult(session.value(), state.name());
    }
}
