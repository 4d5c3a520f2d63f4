package dev.waitroom.coordinator.admission;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/** Counters of offers, claims, claim failures and releases (by reason). Event ids are tags; no visitor data. */
@Component
public class AdmissionMetrics {

    private final MeterRegistry registry;

    AdmissionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void offered(String eventId, int count) {
        if (count > 0) {
            counter("waitroom.coordinator.offers", "event", eventId).increment(count);
        }
    }

    void claimed(String eventId, String outcome) {
        counter("waitroom.coordinator.claims", "event", eventId, "outcome", outcome)
                .increment();
    }

    void claimFailed(String eventId, String reason) {
        counter("waitroom.coordinator.claim.failures", "event", eventId, "reason", reason)
                .increment();
    }

    void released(String eventId, ReleaseReason reason) {
        counter("waitroom.coordinator.releases", "event", eventId, "reason", reason.name())
                .increment();
    }

    void queueSyncRejected(String eventId) {
        counter("waitroom.coordinator.queue.sync.rejected", "event", eventId).increment();
    }

    private Counter counter(String name, String... tags) {
        return Counter.builder(name).tags(tags).register(this.registry);
    }
}
