package dev.waitroom.booking;

import dev.waitroom.booking.signals.CoordinatorSignals;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.HealthReport;
import dev.waitroom.contract.coordinator.SeatCategories;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** The coordinator side of the signals port, in memory: records every call and can play unreachable. */
public final class RecordingCoordinator implements CoordinatorSignals {

    public record PurchaseCompleted(String eventId, String sessionId, UUID orderId) {}

    public record CategoriesReport(String eventId, SeatCategories categories) {}

    private final List<HealthReport> health = new CopyOnWriteArrayList<>();
    private final List<String> soldOut = new CopyOnWriteArrayList<>();
    private final List<PurchaseCompleted> purchases = new CopyOnWriteArrayList<>();
    private final List<CategoriesReport> categories = new CopyOnWriteArrayList<>();
    private final AtomicBoolean unreachable = new AtomicBoolean();
    private final List<String> refusedEvents = new CopyOnWriteArrayList<>();

    /** From now on, answers every signal about this event like a coordinator that does not know it (404). */
    public void refuseEvent(String eventId) {
        refusedEvents.add(eventId);
    }

    public void unreachable(boolean value) {
        unreachable.set(value);
    }

    @Override
    public void health(HealthReport report) {
        failIfUnreachable();
        health.add(report);
    }

    @Override
    public void soldOut(EventId event, String reason) {
        failIfUnreachable();
        failIfRefused(event);
        soldOut.add(event.value());
    }

    @Override
    public void categories(EventId event, SeatCategories report) {
        failIfUnreachable();
        failIfRefused(event);
        // As the coordinator does: the body must pass the contract's validation.
        categories.add(new CategoriesReport(event.value(), report.validated()));
    }

    @Override
    public void purchaseCompleted(EventId event, String sessionId, UUID orderId) {
        failIfUnreachable();
        failIfRefused(event);
        purchases.add(new PurchaseCompleted(event.value(), sessionId, orderId));
    }

    private void failIfRefused(EventId event) {
        if (refusedEvents.contains(event.value())) {
            throw new CoordinatorRefusedException(404);
        }
    }

    private void failIfUnreachable() {
        if (unreachable.get()) {
            throw new CoordinatorUnreachableException("test: coordinator down", null);
        }
    }

    public List<HealthReport> healthReports() {
        return List.copyOf(health);
    }

    public List<String> soldOutEvents() {
        return List.copyOf(soldOut);
    }

    /** The category reports received for an event, oldest first. */
    public List<SeatCategories> categoryReports(String eventId) {
        return categories.stream()
                .filter(r -> r.eventId().equals(eventId))
                .map(CategoriesReport::categories)
                .toList();
    }

    public List<PurchaseCompleted> purchases() {
        return List.copyOf(purchases);
    }
}
