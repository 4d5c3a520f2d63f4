package dev.waitroom.coordinator.rate.web;

import dev.waitroom.coordinator.rate.persistence.HealthReports;

import java.time.Instant;

import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;
import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.rate.RateController;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Booking's health reports (CONTRACTS: POST /internal/health, every second). */
@RestController
class HealthController {

	private final RateController controller;

	private final HealthReports shared;

	HealthController(RateController controller, HealthReports shared) {
		this.controller = controller;
		this.shared = shared;
	}

	@PostMapping("/internal/health")
	ResponseEntity<Void> report(@RequestBody HealthBody body) {
		HealthSample sample;
		try {
			sample = new HealthSample(body.at(), body.windowSeconds(), body.requests(), body.latencyP95Ms(),
					body.latencyP99Ms(), body.errorRate(), body.poolActive(), body.poolPending(), body.poolMax(),
					body.holdFailureRate());
		}
		catch (IllegalArgumentException ex) {
			throw new CoordinatorException(ProblemKind.INVALID, "invalid-health-report", ex.getMessage());
		}
		this.controller.record(sample);
		// Every other instance learns of it through PostgreSQL (SharedHealthFeed).
		this.shared.append(sample);
		return ResponseEntity.noContent().build();
	}

	record HealthBody(Instant at, int windowSeconds, long requests, double latencyP95Ms, double latencyP99Ms,
			double errorRate, int poolActive, int poolPending, int poolMax, double holdFailureRate) {
	}

}
