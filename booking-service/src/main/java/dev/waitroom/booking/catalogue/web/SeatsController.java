package dev.waitroom.booking.catalogue.web;

import dev.waitroom.booking.access.Shopper;
import dev.waitroom.booking.catalogue.AvailableSeat;
import dev.waitroom.booking.catalogue.Catalogue;
import dev.waitroom.booking.catalogue.CategoryAvailability;
import dev.waitroom.contract.EventId;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The shop's seat listing. Needs a shopping-scope admission token for the event of the path. It also tells the shop
 * page whether payments are simulated ({@code waitroom.payments.fake.enabled}), so the page can say so plainly.
 */
@RestController
class SeatsController {

    private final Catalogue catalogue;
    private final boolean paymentsSimulated;

    SeatsController(Catalogue catalogue, @Value("${waitroom.payments.fake.enabled:false}") boolean paymentsSimulated) {
        this.catalogue = catalogue;
        this.paymentsSimulated = paymentsSimulated;
    }

    @GetMapping("/events/{eventId}/shop/seats")
    SeatsResponse seats(
            @PathVariable String eventId, @RequestParam(required = false) String category, Shopper shopper) {
        EventId event = shopper.shoppingEvent();
        Optional<String> wanted = Optional.ofNullable(category).filter(c -> !c.isBlank());
        wanted.ifPresent(c -> {
            if (!c.matches("[A-Za-z0-9][A-Za-z0-9_]{0,31}")) {
                throw new IllegalArgumentException("malformed category");
            }
        });
        return new SeatsResponse(
                event.value(), catalogue.categories(event), catalogue.available(event, wanted), paymentsSimulated);
    }

    /** @param paymentsSimulated true while the in-process payment simulator settles payments: no money moves */
    record SeatsResponse(
            String eventId,
            List<CategoryAvailability> categories,
            List<AvailableSeat> seats,
            boolean paymentsSimulated) {}
}
