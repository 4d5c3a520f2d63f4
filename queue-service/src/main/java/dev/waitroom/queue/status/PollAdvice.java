package dev.waitroom.queue.status;

import dev.waitroom.contract.OperatingMode;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.VisitorStatus;

/**
 * How long a visitor's page should wait before asking again: a few seconds near the front, up to 30 s far
 * away, longer while paused or before the order is known, and twice as long while the service is busy.
 * The page adds its own random jitter.
 */
final class PollAdvice {

    private PollAdvice() {}

    static int pollAfterSeconds(VisitorStatus s, boolean busy) {
        int base = switch (s.state()) {
            case OFFERED -> 2;
            case ACTIVE -> 30;
            case COMPLETED, LEFT, EXPIRED -> 60;
            case WAITING -> waiting(s);
        };
        if (busy && s.state() != EntryState.OFFERED) {
            base = Math.min(60, base * 2);
        }
        return base;
    }

    private static int waiting(VisitorStatus s) {
        if (s.mode() == OperatingMode.SOLD_OUT) {
            return 60;
        }
        if (s.mode() == OperatingMode.PAUSED) {
            return 45;
        }
        if (s.ahead() < 0) {
            return 20;
        }
        double rate = Math.max(s.admissionRatePerSecond(), 0.1);
        double secondsAway = s.ahead() / rate;
        return (int) Math.max(2, Math.min(30, Math.round(secondsAway / 10)));
    }
}
