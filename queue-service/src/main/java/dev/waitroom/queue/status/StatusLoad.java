package dev.waitroom.queue.status;

import dev.waitroom.queue.config.QueueProperties;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/** Status requests in the current second, to ask visitors to poll less often while this instance is busy. */
@Component
public class StatusLoad {

    private final Clock clock;
    private final int busyPerSecond;
    private final AtomicLong window = new AtomicLong();
    private final AtomicLong count = new AtomicLong();
    private volatile long lastCount;

    StatusLoad(Clock clock, QueueProperties properties) {
        this.clock = clock;
        this.busyPerSecond = properties.busyStatusPerSecond();
    }

    /** Records one request; true when the previous or current second is over the threshold. */
    public boolean recordAndCheckBusy() {
        long second = clock.millis() / 1000;
        long w = window.get();
        if (w != second && window.compareAndSet(w, second)) {
            lastCount = w == second - 1 ? count.getAndSet(0) : 0;
            count.set(0);
        }
        long now = count.incrementAndGet();
        return now > busyPerSecond || lastCount > busyPerSecond;
    }
}
