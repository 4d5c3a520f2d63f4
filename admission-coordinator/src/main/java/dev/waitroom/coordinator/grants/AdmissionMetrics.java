package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.EventId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Counters of offers, claims, claim failures, releases (by reason) and checkouts (purchases). Event ids are tags; no
 * visitor data.
 */
@Component
public class AdmissionMetrics {

    /** The reasons a claim fails for, the {@code reason} tag of {@code waitroom.coordinator.claim.failures}. */
    static final List<String> CLAIM_FAILURES = List.of(
            "paused",
            "sold-out",
            "old-generation",
            "session-ended",
            "no-offer",
            "offer-claimed",
            "offer-expired",
            "other-region");

    private final MeterRegistry registry;

    private final Set<String> failuresShown = ConcurrentHashMap.newKeySet();

    AdmissionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void offered(EventId eventId, int count) {
        if (count > 0) {
            if (this.failuresShown.add(eventId.value())) {
                // every reason a series at 0 from the first offer on, so a panel or rule on one reason has a series
                for (String reason : CLAIM_FAILURES) {
                    counter("waitroom.coordinator.claim.failures", "event", eventId.value(), "reason", reason);
                }
                // and the checkouts a series at 0, so the dashboard's checkouts panel reads 0, not nothing
                counter("waitroom.coordinator.checkouts", "event", eventId.value());
            }
            counter("waitroom.coordinator.offers", "event", eventId.value()).increment(count);
        }
    }

    void claimed(EventId eventId, String outcome) {
        counter("waitroom.coordinator.claims", "event", eventId.value(), "outcome", outcome)
                .increment();
    }

    void claimFailed(EventId eventId, String reason) {
        counter("waitroom.coordinator.claim.failures", "event", eventId.value(), "reason", reason)
                .increment();
    }

    void released(EventId eventId, ReleaseReason reason) {
        counter("waitroom.coordinator.releases", "event", eventId.value(), "reason", reason.name())
                .increment();
    }

    /**
     * A purchase booking reported, counted once per grant: the checkout count. A session ended any other way (a new
     * round, a leave, an expiry) is a release, never a checkout.
     */
    void checkedOut(EventId eventId) {
        counter("waitroom.coordinator.checkouts", "event", eventId.value()).increment();
    }

    void queueSyncRejected(EventId eventId) {
        counter("waitroom.coordinator.queue.sync.rejected", "event", eventId.value())
                .increment();
    }

    private Counter counter(String name, String... tags) {
        return Counter.builder(name).tags(tags).register(this.registry);
    }
}
