package dev.waitroom.booking.holds.web;

import dev.waitroom.booking.access.Shopper;
import dev.waitroom.booking.catalogue.SeatId;
import dev.waitroom.booking.holds.HeldSeat;
import dev.waitroom.booking.holds.Hold;
import dev.waitroom.booking.holds.HoldId;
import dev.waitroom.booking.holds.HoldOwner;
import dev.waitroom.booking.holds.Holds;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Holds of the shop. Every route needs a shopping-scope admission token for the event of the path. */
@RestController
@RequestMapping("/events/{eventId}/shop")
class HoldsController {

    private final Holds holds;

    HoldsController(Holds holds) {
        this.holds = holds;
    }

    @PostMapping("/holds")
    ResponseEntity<HoldResponse> hold(@PathVariable String eventId, @RequestBody HoldRequest request, Shopper shopper) {
        EventId event = shopper.shoppingEvent();
        if (request == null || request.seatIds() == null || request.seatIds().isEmpty()) {
            throw new IllegalArgumentException("seatIds must list at least one seat");
        }
        if (request.seatIds().size() > 100) {
            throw new IllegalArgumentException("too many seatIds");
        }
        List<SeatId> seats = request.seatIds().stream().map(SeatId::of).toList();
        Hold hold = holds.hold(event, owner(shopper), seats);
        return ResponseEntity.created(URI.create("/events/" + event.value() + "/shop/holds/" + hold.id()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(HoldResponse.of(hold));
    }

    @GetMapping("/holds/{holdId}")
    HoldResponse hold(@PathVariable String eventId, @PathVariable String holdId, Shopper shopper) {
        EventId event = shopper.shoppingEvent();
        return holds.find(event, HoldId.parse(holdId))
                .filter(h -> h.owner().sessionId().equals(shopper.sessionId()))
                .map(HoldResponse::of)
                .orElseThrow(() -> new ProblemException(ProblemType.HOLD_NOT_FOUND, "no such hold"));
    }

    @DeleteMapping("/holds/{holdId}")
    ResponseEntity<Void> release(@PathVariable String eventId, @PathVariable String holdId, Shopper shopper) {
        EventId event = shopper.shoppingEvent();
        holds.release(event, HoldId.parse(holdId), owner(shopper));
        return ResponseEntity.noContent().build();
    }

    private static HoldOwner owner(Shopper shopper) {
        return new HoldOwner(shopper.sessionId(), shopper.visitor());
    }

    record HoldRequest(List<String> seatIds) {}

    record HoldResponse(
            String holdId,
            String eventId,
            String state,
            Instant expiresAt,
            List<String> seatIds,
            List<SeatView> seats,
            long amountCents) {

        static HoldResponse of(Hold hold) {
            return new HoldResponse(
                    hold.id().toString(),
                    hold.eventId().value(),
                    hold.state().name(),
                    hold.expiresAt(),
                    hold.seats().stream().map(s -> s.seatId().value()).toList(),
                    hold.seats().stream().map(SeatView::of).toList(),
                    hold.amountCents());
        }
    }

    record SeatView(String seatId, String category, long priceCents) {

        static SeatView of(HeldSeat seat) {
            return new SeatView(seat.seatId().value(), seat.category(), seat.priceCents());
        }
    }
}
