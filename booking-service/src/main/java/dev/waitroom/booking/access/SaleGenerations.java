package dev.waitroom.booking.access;

import dev.waitroom.contract.EventId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The highest sale generation seen in a verified admission header, per event. Booking has no feed of the coordinator's
 * generation, so once an admission of a newer sale has been seen, older sales' admissions only read their orders.
 */
final class SaleGenerations {

    private static final int MAX_EVENTS = 10_000;

    private final Map<EventId, Long> highest = new ConcurrentHashMap<>();

    long current(EventId event) {
        return highest.getOrDefault(event, 0L);
    }

    void observe(EventId event, long generation) {
        if (highest.size() >= MAX_EVENTS && !highest.containsKey(event)) {
            highest.clear();
        }
        highest.merge(event, generation, Math::max);
    }
}
