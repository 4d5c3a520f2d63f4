package dev.waitroom.coordinator.rate.web;

import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.contract.coordinator.HealthReport;
import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.rate.RateController;
import dev.waitroom.coordinator.rate.persistence.HealthReports;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Booking's health reports (CONTRACTS: POST /internal/health, every second). A report that cannot be a measurement
 * is answered with the contract's invalid-health-report problem.
 */
@RestController
class HealthController {

    private final RateController controller;

    private final HealthReports shared;

    HealthController(RateController controller, HealthReports shared) {
        this.controller = controller;
        this.shared = shared;
    }

    @PostMapping(CoordinatorPaths.HEALTH)
    ResponseEntity<Void> report(@RequestBody HealthReport body) {
        HealthSample sample = HealthSample.of(body);
        this.controller.record(sample);
        // Every other instance learns of it through PostgreSQL (SharedHealthFeed).
        this.shared.append(sample);
        return ResponseEntity.noContent().build();
    }
}
