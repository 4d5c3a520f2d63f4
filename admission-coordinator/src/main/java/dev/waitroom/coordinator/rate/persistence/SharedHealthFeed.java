package dev.waitroom.coordinator.rate.persistence;

import dev.waitroom.coordinator.rate.EventRates;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Feeds this instance's rate controllers with the health reports other instances received (booking's and the
 * gateways' edge reports), so whichever instance leads an event sees its health even when booking's or a gateway's
 * URL reaches another one. Off where the ticker is off.
 */
@Component
@EnableScheduling
@ConditionalOnProperty(name = "waitroom.coordinator.ticker-enabled", havingValue = "true", matchIfMissing = true)
class SharedHealthFeed {

    private static final Logger log = LoggerFactory.getLogger(SharedHealthFeed.class);

    private static final Duration KEEP = Duration.ofMinutes(2);

    private final HealthReports reports;

    private final EdgeHealthReports edgeReports;

    private final EventRates controller;

    private long lastId = -1;

    private long lastEdgeId = -1;

    private long polls;

    SharedHealthFeed(HealthReports reports, EdgeHealthReports edgeReports, EventRates controller) {
        this.reports = reports;
        this.edgeReports = edgeReports;
        this.controller = controller;
    }

    @Scheduled(fixedDelayString = "${waitroom.coordinator.tick-interval:250ms}")
    void feed() {
        try {
            if (this.lastId < 0) {
                // Start from now: older reports are stale anyway.
                this.lastId = this.reports.latestId();
            }
            for (HealthReports.Report report : this.reports.receivedElsewhereAfter(this.lastId)) {
                this.controller.record(report.sample());
                this.lastId = report.id();
            }
            if (this.lastEdgeId < 0) {
                this.lastEdgeId = this.edgeReports.latestId();
            }
            for (EdgeHealthReports.Report report : this.edgeReports.receivedElsewhereAfter(this.lastEdgeId)) {
                this.controller.recordEdge(report.report());
                this.lastEdgeId = report.id();
            }
            if (this.polls++ % 240 == 0) {
                this.reports.pruneOlderThan(KEEP);
                this.edgeReports.pruneOlderThan(KEEP);
            }
        } catch (RuntimeException ex) {
            // PostgreSQL down: the edge's health turns stale here after traffic, which pauses admission, as it should.
            log.debug("Shared health reports unavailable: {}", ex.getMessage());
        }
    }
}
