package dev.waitroom.coordinator.categories.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.contract.coordinator.SeatCategories;
import dev.waitroom.coordinator.categories.SeatCategoryIntake;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Booking's seat categories (CONTRACTS: "coordinator internal API"): behind the internal credential like every
 * {@code /internal} route; 204 once stored.
 */
@RestController
class CategoriesController {

    private final SeatCategoryIntake intake;

    CategoriesController(SeatCategoryIntake intake) {
        this.intake = intake;
    }

    @PutMapping(CoordinatorPaths.CATEGORIES)
    ResponseEntity<Void> categories(@PathVariable String eventId, @RequestBody SeatCategories body) {
        this.intake.report(EventId.of(eventId), body);
        return ResponseEntity.noContent().build();
    }
}
