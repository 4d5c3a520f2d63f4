package dev.waitroom.coordinator.rate;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.EdgeHealthReport;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The rate controllers of every event this instance has seen, one {@link RateController} per event. The edge's
 * windows go to the event they were measured for; a shop's own report (booking's, which names no event) goes to
 * every event, and to a template that a new event's controller starts from. Framework-free and thread-safe.
 */
public final class EventRates {

    private final RateController template;

    private final Map<EventId, RateController> events = new ConcurrentHashMap<>();

    private final RateControllerSettings settings;

    private final java.time.Clock clock;

    private final BiConsumer<EventId, RateDecision> decisions;

    private final Consumer<EventId> created;

    private EventRates(
            RateControllerSettings settings,
            java.time.Clock clock,
            BiConsumer<EventId, RateDecision> decisions,
            Consumer<EventId> created) {
        this.settings = Objects.requireNonNull(settings);
        this.clock = Objects.requireNonNull(clock);
        this.decisions = Objects.requireNonNull(decisions);
        this.created = Objects.requireNonNull(created);
        this.template = RateController.of(settings, clock, d -> {});
    }

    /**
     * Controllers with these settings that report each decision with its event to {@code decisions} and each event
     * first seen to {@code created} (once per event, for its gauges).
     */
    public static EventRates of(
            RateControllerSettings settings,
            java.time.Clock clock,
            BiConsumer<EventId, RateDecision> decisions,
            Consumer<EventId> created) {
        return new EventRates(settings, clock, decisions, created);
    }

    public RateControllerSettings settings() {
        return this.settings;
    }

    public java.time.Clock clock() {
        return this.clock;
    }

    /** The event's controller, created on first use from the shop's health so far. */
    public RateController of(EventId eventId) {
        RateController existing = this.events.get(eventId);
        if (existing != null) {
            return existing;
        }
        boolean[] isNew = {false};
        RateController controller = this.events.computeIfAbsent(eventId, id -> {
            isNew[0] = true;
            return RateController.startingFrom(this.template, d -> this.decisions.accept(id, d));
        });
        if (isNew[0]) {
            this.created.accept(eventId);
        }
        return controller;
    }

    /** The factor in force for the event now. */
    public double factor(EventId eventId) {
        return of(eventId).factor();
    }

    public RateController.HealthView view(EventId eventId) {
        return of(eventId).view();
    }

    /** The shop's own reports as every event reads them: STALE when none is fresh. */
    public HealthStatus shopStatus() {
        return this.template.view().shopStatus();
    }

    /** One of the shop's own reports: it names no event, so it counts for every event. */
    public void record(HealthSample sample) {
        this.template.record(sample);
        for (RateController controller : this.events.values()) {
            controller.record(sample);
        }
    }

    /**
     * One gateway's report: each window to its event's controller, and every other event learns that the edge is
     * there and forwarded nothing for it.
     */
    public void recordEdge(EdgeHealthReport report) {
        Instant at = report.at();
        Set<EventId> measured = new HashSet<>();
        for (EdgeHealthReport.Window window : report.windows()) {
            EventId eventId = EventId.of(window.eventId());
            measured.add(eventId);
            of(eventId).recordEdge(EdgeSample.of(at, report.windowSeconds(), window));
        }
        for (Map.Entry<EventId, RateController> event : this.events.entrySet()) {
            if (!measured.contains(event.getKey())) {
                event.getValue().edgeIdle(at);
            }
        }
    }
}
