package dev.waitroom.queue.event;

import dev.waitroom.contract.queue.JoinGate;
import java.util.Optional;

/**
 * How join.lua enforces an event's join ceiling (docs/design/abuse/join-ceiling-and-redis-memory.md): at most
 * {@code entries} new entries per window of {@code seconds} whole seconds of the Redis server's clock, counted in the
 * event's {@code jr} key. A ceiling of at least 1 a second is a one-second window of its whole part (2.5 a second
 * allows 2); below 1 a second the window is as many seconds as one entry needs (0.25: one entry per 4 s). Stored in
 * the event hash as {@link #SECONDS_FIELD} and {@link #ENTRIES_FIELD}, absent when there is no ceiling.
 */
record JoinWindow(long seconds, long entries) {

    /** Event hash field: the ceiling as ops set it (joins per second), read back into the {@link JoinGate}. */
    static final String RATE_FIELD = "maxJoins";

    /** Event hash field: the proof-of-work difficulty, for the gateway's snapshot. */
    static final String DIFFICULTY_FIELD = "pow";

    /** Event hash field read by join.lua: the window's length in seconds. */
    static final String SECONDS_FIELD = "jw";

    /** Event hash field read by join.lua: new entries allowed per window. */
    static final String ENTRIES_FIELD = "jn";

    JoinWindow {
        if (seconds < 1 || entries < 1) {
            throw new IllegalArgumentException("a join window is at least one second and one entry");
        }
    }

    /** The window of a gate's ceiling; empty when it has none. */
    static Optional<JoinWindow> of(JoinGate gate) {
        if (!gate.hasCeiling()) {
            return Optional.empty();
        }
        double rate = gate.maxJoinsPerSecond();
        if (rate >= 1) {
            return Optional.of(new JoinWindow(1, (long) Math.floor(rate)));
        }
        long seconds = (long) Math.ceil(1 / rate);
        return Optional.of(new JoinWindow(seconds, Math.max(1, (long) Math.floor(rate * seconds))));
    }
}
