package dev.waitroom.gateway.origin;

import dev.waitroom.contract.coordinator.EdgeHealthReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.stereotype.Component;

/**
 * The requests this gateway forwarded to shop origins, per (event, origin), counted in the current window: requests,
 * 5xx answers, timeouts, connection errors and a latency histogram of fixed buckets. Recording is a map lookup
 * without allocation (an event's origins are compared by the routed URI's scheme and authority, which the URI holds)
 * and a few {@link LongAdder} increments; {@link #drain} reads and resets them once per report interval, off the
 * request path. The same requests are Micrometer series: {@code waitroom.gateway.origin.requests{event,outcome}} and
 * the timer {@code waitroom.gateway.origin.latency{event}} (docs/reference/metrics.md).
 */
@Component
class OriginWindows {

    /** Upper bounds of the latency buckets, in milliseconds; the rate controller's thresholds are 800 and 3,000. */
    static final long[] BOUNDS_MS = {5, 10, 25, 50, 100, 250, 500, 800, 1000, 1500, 2000, 3000, 5000, 10000, 15000};

    private final ConcurrentHashMap<String, Origins> events = new ConcurrentHashMap<>();

    private final MeterRegistry meters;

    private final OriginHealthProperties properties;

    private final Counter unmeasured;

    OriginWindows(MeterRegistry meters, OriginHealthProperties properties) {
        this.meters = meters;
        this.properties = properties;
        this.unmeasured = Counter.builder("waitroom.gateway.origin.unmeasured")
                .description("Requests forwarded to an origin beyond the (event, origin) pairs measured at most")
                .register(meters);
    }

    /** One forwarded request of {@code eventId} to the origin of {@code url}, and how it ended. */
    void record(String eventId, URI url, Outcome outcome, long nanos) {
        Window window = window(eventId, url);
        if (window == null) {
            this.unmeasured.increment();
            return;
        }
        window.record(outcome, nanos);
    }

    private Window window(String eventId, URI url) {
        Origins origins = this.events.get(eventId);
        if (origins == null) {
            if (size() >= this.properties.maxWindows()) {
                return null;
            }
            origins = this.events.computeIfAbsent(eventId, Origins::new);
        }
        return origins.of(url);
    }

    private int size() {
        int n = 0;
        for (Origins o : this.events.values()) {
            n += o.windows.size();
        }
        return n;
    }

    /**
     * The windows with requests since the last drain, reset; pairs without a request for
     * {@code forgetAfter} are dropped. Called by one thread at a time.
     */
    List<EdgeHealthReport.Window> drain(long nowNanos) {
        List<EdgeHealthReport.Window> drained = new ArrayList<>();
        long forget = this.properties.forgetAfter().toNanos();
        for (Origins origins : this.events.values()) {
            synchronized (origins) {
                List<Window> kept = new ArrayList<>(origins.windows.size());
                for (Window w : origins.windows) {
                    EdgeHealthReport.Window taken = w.drain(origins.eventId, nowNanos);
                    if (taken != null) {
                        drained.add(taken);
                    }
                    if (nowNanos - w.lastRequestNanos < forget) {
                        kept.add(w);
                    }
                }
                origins.windows = List.copyOf(kept);
                if (kept.isEmpty()) {
                    this.events.remove(origins.eventId, origins);
                }
            }
        }
        return drained;
    }

    /** The origins of one event; the list is replaced, never changed, so a request reads it without a lock. */
    private final class Origins {

        final String eventId;

        volatile List<Window> windows = List.of();

        Origins(String eventId) {
            this.eventId = eventId;
        }

        Window of(URI url) {
            String scheme = url.getScheme();
            String authority = url.getRawAuthority();
            for (Window w : this.windows) {
                if (w.scheme.equals(scheme) && w.authority.equals(authority)) {
                    return w;
                }
            }
            synchronized (this) {
                for (Window w : this.windows) {
                    if (w.scheme.equals(scheme) && w.authority.equals(authority)) {
                        return w;
                    }
                }
                List<Window> more = new ArrayList<>(this.windows);
                Window w = new Window(this.eventId, url);
                more.add(w);
                this.windows = List.copyOf(more);
                OriginWindows.this.events.putIfAbsent(this.eventId, this);
                return w;
            }
        }
    }

    /** One (event, origin)'s counts in the current window, and its meters. */
    private final class Window {

        final String scheme;

        final String authority;

        final String origin;

        final LongAdder requests = new LongAdder();

        final LongAdder serverErrors = new LongAdder();

        final LongAdder timeouts = new LongAdder();

        final LongAdder connectionErrors = new LongAdder();

        final LongAdder[] buckets = new LongAdder[BOUNDS_MS.length + 1];

        final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

        final Counter[] outcomes = new Counter[Outcome.values().length];

        final Timer latency;

        volatile long lastRequestNanos = System.nanoTime();

        Window(String eventId, URI url) {
            this.scheme = url.getScheme();
            this.authority = url.getRawAuthority();
            int port = url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(this.scheme) ? 443 : 80;
            this.origin = this.scheme + "://" + url.getHost() + ":" + port;
            for (int i = 0; i < this.buckets.length; i++) {
                this.buckets[i] = new LongAdder();
            }
            for (Outcome o : Outcome.values()) {
                this.outcomes[o.ordinal()] = Counter.builder("waitroom.gateway.origin.requests")
                        .description("Requests the gateway forwarded to an event's shop origin, by outcome")
                        .tag("event", eventId)
                        .tag("outcome", o.tag)
                        .register(OriginWindows.this.meters);
            }
            this.latency = Timer.builder("waitroom.gateway.origin.latency")
                    .description("Time from forwarding a request to an event's shop origin to its response headers")
                    .tag("event", eventId)
                    .register(OriginWindows.this.meters);
        }

        void record(Outcome outcome, long nanos) {
            this.lastRequestNanos = System.nanoTime();
            this.requests.increment();
            this.outcomes[outcome.ordinal()].increment();
            switch (outcome) {
                case TIMEOUT -> this.timeouts.increment();
                case CONNECTION_ERROR -> this.connectionErrors.increment();
                case SERVER_ERROR, OK -> {
                    if (outcome == Outcome.SERVER_ERROR) {
                        this.serverErrors.increment();
                    }
                    this.latency.record(nanos, TimeUnit.NANOSECONDS);
                    this.buckets[bucket(nanos)].increment();
                    this.maxNanos.accumulate(nanos);
                }
            }
        }

        EdgeHealthReport.Window drain(String eventId, long nowNanos) {
            long n = this.requests.sumThenReset();
            long errors = this.serverErrors.sumThenReset();
            long timedOut = this.timeouts.sumThenReset();
            long refused = this.connectionErrors.sumThenReset();
            long[] counts = new long[this.buckets.length];
            long answered = 0;
            for (int i = 0; i < counts.length; i++) {
                counts[i] = this.buckets[i].sumThenReset();
                answered += counts[i];
            }
            long max = this.maxNanos.getThenReset();
            if (n == 0) {
                return null;
            }
            // a request counted in one figure just as another was read lands in the next window: never more failures
            // than requests
            long total = Math.max(n, errors + timedOut + refused);
            return new EdgeHealthReport.Window(
                    eventId,
                    this.origin,
                    total,
                    errors,
                    timedOut,
                    refused,
                    percentile(counts, answered, 0.95, max),
                    percentile(counts, answered, 0.99, max));
        }
    }

    static int bucket(long nanos) {
        long ms = TimeUnit.NANOSECONDS.toMillis(nanos);
        for (int i = 0; i < BOUNDS_MS.length; i++) {
            if (ms <= BOUNDS_MS[i]) {
                return i;
            }
        }
        return BOUNDS_MS.length;
    }

    /** The upper bound of the bucket holding the quantile; above the last bound, the window's slowest answer. */
    static double percentile(long[] counts, long answered, double quantile, long maxNanos) {
        if (answered == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(quantile * answered);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return i < BOUNDS_MS.length ? BOUNDS_MS[i] : Math.max(BOUNDS_MS[BOUNDS_MS.length - 1], maxNanos / 1e6);
            }
        }
        return maxNanos / 1e6;
    }
}
