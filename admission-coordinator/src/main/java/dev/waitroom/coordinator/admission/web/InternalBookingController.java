package dev.waitroom.coordinator.admission.web;

import java.util.UUID;

import dev.waitroom.coordinator.admission.Admissions;
import dev.waitroom.coordinator.admission.GrantState;
import dev.waitroom.coordinator.event.EventId;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.OperatingMode;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** What booking tells the coordinator (CONTRACTS: "coordinator internal API"). */
@RestController
class InternalBookingController {

	private final Admissions admissions;

	private final EventManagement events;

	InternalBookingController(Admissions admissions, EventManagement events) {
		this.admissions = admissions;
		this.events = events;
	}

	@PostMapping("/internal/events/{eventId}/sold-out")
	ModeBody soldOut(@PathVariable String eventId, @RequestBody(required = false) ReasonBody body) {
		String reason = body == null || body.reason() == null || body.reason().isBlank() ? "sold out" : body.reason();
		var event = this.events.changeMode(EventId.of(eventId), OperatingMode.SOLD_OUT, "booking", clip(reason));
		return new ModeBody(event.id().value(), event.mode().name());
	}

	@PostMapping("/internal/events/{eventId}/sessions/{sessionId}/purchase-completed")
	PurchaseResult purchaseCompleted(@PathVariable String eventId, @PathVariable String sessionId,
			@RequestBody PurchaseBody body) {
		SessionId session;
		try {
			session = SessionId.parse(sessionId);
		}
		catch (IllegalArgumentException ex) {
			throw new CoordinatorException(ProblemKind.INVALID, "invalid-session-id", "Session ids are UUIDs.");
		}
		if (body == null || body.orderId() == null || body.orderId().isBlank() || body.orderId().length() > 100) {
			throw new CoordinatorException(ProblemKind.INVALID, "invalid-request", "orderId is required.");
		}
		GrantState state = this.admissions.purchaseCompleted(EventId.of(eventId), session, body.orderId());
		return new PurchaseResult(session.value(), state.name());
	}

	private static String clip(String s) {
		return s.length() > 500 ? s.substring(0, 500) : s;
	}

	record ReasonBody(String reason) {
	}

	record ModeBody(String eventId, String mode) {
	}

	record PurchaseBody(String orderId) {
	}

	record PurchaseResult(UUID sessionId, String state) {
	}

}
