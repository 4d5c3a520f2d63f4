package dev.waitroom.loadtest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** What the virtual visitors saw, kept for the verdict: request timings, outcomes and samples of the live view. */
final class Ledger {

    record Timing(String kind, long endMillis, long millis) {}

    record LiveSample(long atMillis, long offered, long active, double admissionRate, String mode) {}

    /** A wait estimate a visitor was shown: when (the answer's arrival), the range in seconds and its caveat. */
    record Shown(long atMillis, long min, long max, String caveat) {}

    /** An admitted visitor's estimates, first shown first, and when the offer was made (its deadline less the TTL). */
    record Waited(List<Shown> shown, long offeredAtMillis) {}

    /**
     * One sample of the capacity ledger's budgets ({@code GET /admin/events/{e}/regions}): the ceiling, grants held
     * centrally, and each region's leased slots and live grants (used).
     */
    record BudgetSample(
            long atMillis, long ceiling, long centralLive, Map<String, Long> slots, Map<String, Long> used) {
        long totalSlots() {
            return slots.values().stream().mapToLong(Long::longValue).sum();
        }

        long totalUsed() {
            return used.values().stream().mapToLong(Long::longValue).sum();
        }

        /**
         * What the ledger holds of the ceiling (its invariant, docs/operating/regions.md): the central grants plus, per region,
         * its slots or its live grants if more (a frozen budget being reconciled).
         */
        long held() {
            return centralLive
                    + slots.entrySet().stream()
                            .mapToLong(s -> Math.max(s.getValue(), used.getOrDefault(s.getKey(), 0L)))
                            .sum();
        }
    }

    private final Map<String, ConcurrentLinkedQueue<Timing>> timings = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<LiveSample> liveSamples = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
    private final Map<String, Map<String, AtomicInteger>> regionOutcomes = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<BudgetSample> budgetSamples = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> soldSeats = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Waited> waits = new ConcurrentLinkedQueue<>();
    private final AtomicLong edgeAnswered = new AtomicLong();
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong unknownEstimates = new AtomicLong();
    private volatile long slowdownStartMillis;
    private volatile long slowdownEndMillis;

    void time(String kind, long millis) {
        timings.computeIfAbsent(kind, k -> new ConcurrentLinkedQueue<>())
                .add(new Timing(kind, System.currentTimeMillis(), millis));
    }

    void outcome(String outcome) {
        outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
    }

    /** An outcome of a visitor of {@code region} (besides the total, which {@link #outcome} counts). */
    void regionOutcome(String region, String outcome) {
        regionOutcomes
                .computeIfAbsent(region, r -> new ConcurrentHashMap<>())
                .computeIfAbsent(outcome, k -> new AtomicInteger())
                .incrementAndGet();
    }

    Map<String, Map<String, Integer>> regionOutcomes() {
        Map<String, Map<String, Integer>> copy = new java.util.TreeMap<>();
        regionOutcomes.forEach((region, counts) -> {
            Map<String, Integer> c = new java.util.TreeMap<>();
            counts.forEach((k, v) -> c.put(k, v.get()));
            copy.put(region, c);
        });
        return copy;
    }

    void budgets(BudgetSample sample) {
        budgetSamples.add(sample);
    }

    List<BudgetSample> budgetSamples() {
        return new ArrayList<>(budgetSamples);
    }

    void statusSource(String source) {
        if ("edge".equals(source)) {
            edgeAnswered.incrementAndGet();
        } else if (source != null) {
            forwarded.incrementAndGet();
        }
    }

    void sold(List<String> seatIds) {
        soldSeats.addAll(seatIds);
    }

    void waited(List<Shown> shown, long offeredAtMillis) {
        waits.add(new Waited(List.copyOf(shown), offeredAtMillis));
    }

    List<Waited> waits() {
        return new ArrayList<>(waits);
    }

    void live(LiveSample sample) {
        liveSamples.add(sample);
    }

    void slowdown(long startMillis, long endMillis) {
        this.slowdownStartMillis = startMillis;
        this.slowdownEndMillis = endMillis;
    }

    List<Timing> timings(String kind) {
        return new ArrayList<>(timings.getOrDefault(kind, new ConcurrentLinkedQueue<>()));
    }

    List<LiveSample> liveSamples() {
        return new ArrayList<>(liveSamples);
    }

    Map<String, Integer> outcomes() {
        Map<String, Integer> copy = new java.util.TreeMap<>();
        outcomes.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    List<String> soldSeats() {
        return Collections.unmodifiableList(new ArrayList<>(soldSeats));
    }

    /** A WAITING visitor's status answer said the wait is not known yet (no range: too wide to mean anything). */
    void unknownEstimate() {
        unknownEstimates.incrementAndGet();
    }

    long unknownEstimates() {
        return unknownEstimates.get();
    }

    long edgeAnswered() {
        return edgeAnswered.get();
    }

    long forwarded() {
        return forwarded.get();
    }

    long slowdownStartMillis() {
        return slowdownStartMillis;
    }

    long slowdownEndMillis() {
        return slowdownEndMillis;
    }
}
