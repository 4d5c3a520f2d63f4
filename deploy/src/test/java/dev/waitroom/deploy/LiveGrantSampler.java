package dev.waitroom.deploy;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Samples an event's durable count of live grants every 200 ms while a scenario runs, keeping the maximum. */
final class LiveGrantSampler implements AutoCloseable {

    final int ceiling;
    final AtomicLong max = new AtomicLong();
    final AtomicLong samples = new AtomicLong();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "live-grant-sampler");
        thread.setDaemon(true);
        return thread;
    });

    LiveGrantSampler(DurableState durable, String eventId, int ceiling) {
        this.ceiling = ceiling;
        timer.scheduleAtFixedRate(
                () -> {
                    try {
                        max.accumulateAndGet(durable.liveGrants(eventId), Math::max);
                        samples.incrementAndGet();
                    } catch (Exception storeDown) {
                        // PostgreSQL restarts in one scenario: no sample then, the next one counts
                    }
                },
                0,
                200,
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(5, TimeUnit.SECONDS);
    }
}
