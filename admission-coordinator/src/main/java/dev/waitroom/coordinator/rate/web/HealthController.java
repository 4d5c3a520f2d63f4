package dev.waitroom.coordinator.rate.web;

import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.contract.coordinator.EdgeHealthReport;
import dev.waitroom.contract.coordinator.HealthReport;
import dev.waitroom.coordinator.rate.EventRates;
import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.rate.persistence.EdgeHealthReports;
import dev.waitroom.coordinator.rate.persistence.HealthReports;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Booking's health reports (CONTRACTS: POST /internal/health, every second) and the gateways' edge health reports
 * (POST /internal/edge-health, every second from each instance). A report that cannot be a measurement is answered
 * with the contract's invalid-health-report problem.
 */
@RestController
class HealthController {

    private final EventRates controller;

    private final HealthReports shared;

    private final EdgeHealthReports sharedEdge;

    HealthController(EventRates controller, HealthReports shared, EdgeHealthReports sharedEdge) {
        this.controller = controller;
        this.shared = shared;
        this.sharedEdge = sharedEdge;
    }

    @PostMapping(CoordinatorPaths.HEALTH)
    ResponseEntity<Void> report(@RequestBody HealthReport body) {
        HealthSample sample = HealthSample.of(body);
        this.controller.record(sample);
        // Every other instance learns of it through PostgreSQL (SharedHealthFeed).
        this.shared.append(sample);
        return ResponseEntity.noContent().build();
    }

    @PostMapping(CoordinatorPaths.EDGE_HEALTH)
    ResponseEntity<Void> edge(@RequestBody EdgeHealthReport body) {
        EdgeHealthReport report = body.validated();
        this.controller.recordEdge(report);
        this.sharedEdge.append(report);
        return ResponseEntity.noContent().build();
    }
}
