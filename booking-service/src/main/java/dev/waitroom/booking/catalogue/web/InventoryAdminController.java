package dev.waitroom.booking.catalogue.web;

import dev.waitroom.booking.catalogue.Catalogue;
import dev.waitroom.booking.catalogue.CategoryAvailability;
import dev.waitroom.booking.catalogue.CategorySpec;
import dev.waitroom.contract.EventId;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Ops: define an event's seats (docs/design/architecture.md#ops-api). Idempotent; the ops token is checked by a filter on
 * /admin/**.
 */
@RestController
class InventoryAdminController {

    private static final int MAX_CATEGORIES = 50;

    private final Catalogue catalogue;

    InventoryAdminController(Catalogue catalogue) {
        this.catalogue = catalogue;
    }

    @PutMapping("/admin/events/{eventId}/inventory")
    InventoryResponse define(@PathVariable String eventId, @RequestBody InventoryRequest request) {
        EventId event = EventId.of(eventId);
        if (request == null
                || request.categories() == null
                || request.categories().isEmpty()
                || request.categories().size() > MAX_CATEGORIES) {
            throw new IllegalArgumentException("categories must list 1 to " + MAX_CATEGORIES + " categories");
        }
        List<CategorySpec> specs = request.categories().stream()
                .map(c -> {
                    if (c == null || c.seats() == null || c.priceCents() == null) {
                        throw new IllegalArgumentException("each category needs name, seats and priceCents");
                    }
                    return new CategorySpec(c.name(), c.seats(), c.priceCents());
                })
                .toList();
        if (specs.stream().map(CategorySpec::name).distinct().count() != specs.size()) {
            throw new IllegalArgumentException("category names must be distinct");
        }
        return new InventoryResponse(event.value(), catalogue.define(event, specs));
    }

    @GetMapping("/admin/events/{eventId}/inventory")
    InventoryResponse read(@PathVariable String eventId) {
        EventId event = EventId.of(eventId);
        return new InventoryResponse(event.value(), catalogue.categories(event));
    }

    record InventoryRequest(List<CategoryRequest> categories) {}

    record CategoryRequest(String name, Integer seats, Long priceCents) {}

    record InventoryResponse(String eventId, List<CategoryAvailability> categories) {}
}
