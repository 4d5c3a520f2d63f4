package dev.waitroom.booking.inventory.web;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.waitroom.booking.EventId;
import dev.waitroom.booking.access.Shopper;
import dev.waitroom.booking.inventory.AvailableSeat;
import dev.waitroom.booking.inventory.CategoryAvailability;
import dev.waitroom.booking.inventory.HeldSeat;
import dev.waitroom.booking.inventory.Hold;
import dev.waitroom.booking.inventory.HoldId;
import dev.waitroom.booking.inventory.HoldOwner;
import dev.waitroom.booking.inventory.Inventory;
import dev.waitroom.booking.inventory.SeatId;
import dev.waitroom.booking.problem.ProblemType;
import dev.waitroom.booking.problem.ShopProblemException;

/** Seats and holds of the shop. Every route needs a shopping-scope admission token for the event of the path. */
@RestController
@RequestMapping("/events/{eventId}/shop")
class HoldsController {

    private final Inventory inventory;

    HoldsController(Inventory inventory) {
        this.inventory = inventory;
    }

    @GetMapping("/seats")
    SeatsResponse seats(@PathVariable String eventId, @RequestParam(required = false) String category,
            Shopper shopper) {
        EventId event = shopping(shopper);
        Optional<String> wanted = Optional.ofNullable(category).filter(c -> !c.isBlank());
        wanted.ifPresent(c -> {
            if (!c.matches("[A-Za-z0-9][A-Za-z0-9_]{0,31}")) {
                throw new IllegalArgumentException("malformed category");
            }
        });
        return new SeatsResponse(event.value(), inventory.categories(event), inventory.available(event, wanted));
    }

    @PostMapping("/holds")
    ResponseEntity<HoldResponse> hold(@PathVariable String eventId, @RequestBody HoldRequest request,
            Shopper shopper) {
        EventId event = shopping(shopper);
        if (request == null || request.seatIds() == null || request.seatIds().isEmpty()) {
            throw new IllegalArgumentException("seatIds must list at least one seat");
        }
        if (request.seatIds().size() > 100) {
            throw new IllegalArgumentException("too many seatIds");
        }
        List<SeatId> seats = request.seatIds().stream().map(SeatId::of).toList();
        Hold hold = inventory.hold(event, owner(shopper), seats);
        return ResponseEntity.created(URI.create("/events/" + event.value() + "/shop/holds/" + hold.id()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(HoldResponse.of(hold));
    }

    @GetMapping("/holds/{holdId}")
    HoldResponse hold(@PathVariable String eventId, @PathVariable String holdId, Shopper shopper) {
        EventId event = shopping(shopper);
        return inventory.find(event, HoldId.parse(holdId))
                .filter(h -> h.owner().sessionId().equals(shopper.sessionId()))
                .map(HoldResponse::of)
                .orElseThrow(() -> new ShopProblemException(ProblemType.HOLD_NOT_FOUND, "no such hold"));
    }

    @DeleteMapping("/holds/{holdId}")
    ResponseEntity<Void> release(@PathVariable String eventId, @PathVariable String holdId, Shopper shopper) {
        EventId event = shopping(shopper);
        inventory.release(event, HoldId.parse(holdId), owner(shopper));
        return ResponseEntity.noContent().build();
    }

    private static EventId shopping(Shopper shopper) {
        if (shopper.scope() != Shopper.AccessScope.SHOPPING) {
            throw new ShopProblemException(ProblemType.ADMISSION_REJECTED, "the shopping session has expired");
        }
        return shopper.eventId();
    }

    private static HoldOwner owner(Shopper shopper) {
        return new HoldOwner(shopper.sessionId(), shopper.visitor());
    }

    record HoldRequest(List<String> seatIds) {
    }

    record SeatsResponse(String eventId, List<CategoryAvailability> categories, List<AvailableSeat> seats) {
    }

    record HoldResponse(String holdId, String eventId, String state, Instant expiresAt, List<String> seatIds,
            List<SeatView> seats, long amountCents) {

        static HoldResponse of(Hold hold) {
            return new HoldResponse(hold.id().toString(), hold.eventId().value(), hold.state().name(),
                    hold.expiresAt(), hold.seats().stream().map(s -> s.seatId().value()).toList(),
                    hold.seats().stream().map(SeatView::of).toList(), hold.amountCents());
        }
    }

    record SeatView(String seatId, String category, long priceCents) {

        static SeatView of(HeldSeat seat) {
            return new SeatView(seat.seatId().value(), seat.category(), seat.priceCents());
        }
    }
}
