package dev.waitroom.queue.status;

import dev.waitroom.contract.OperatingMode;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.VisitorStatus;

/**
 * How long a visitor's page should wait before asking again: a few seconds near the front, up to 30 s far
 * away, longer while paused or before the order is known, a minute while sold out, and twice as long while the
 * service is busy.
 * The page adds its own random jitter.
 */
final class PollAdvice {

    static final int SOLD_OUT_SECONDS = 60;
    static final int PAUSED_SECONDS = 45;
    static final int PAUSED_OFFER_SECONDS = 10;

    private PollAdvice() {}

    static int pollAfterSeconds(VisitorStatus s, boolean busy) {
        if (s.mode() == OperatingMode.SOLD_OUT) {
            // nothing moves and nothing can be claimed: the page only needs to learn of a new sale round
            return SOLD_OUT_SECONDS;
        }
        int base = switch (s.state()) {
            // a held offer cannot be claimed while paused (its deadline is extended by the pause)
            case OFFERED -> s.mode() == OperatingMode.PAUSED ? PAUSED_OFFER_SECONDS : 2;
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
        if (s.mode() == OperatingMode.PAUSED) {
            return PAUSED_SECONDS;
        }
        if (s.ahead() < 0) {
            return 20;
        }
        double rate = Math.max(s.admissionRatePerSecond(), 0.1);
        double secondsAway = s.ahead() / rate;
        return (int) Math.max(2, Math.min(30, Math.round(secondsAway / 10)));
    }
}
