package dev.waitroom.booking.signals;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Times every shop request (including injected faults, which run inside it) for the health window and the
 * {@code waitroom.booking.request.latency} timer. A 5xx answer is an error; 4xx answers are the shopper's.
 */
final class RequestMetricsFilter extends OncePerRequestFilter {

    private final RequestWindow window;
    private final Timer ok;
    private final Timer failed;

    RequestMetricsFilter(RequestWindow window, MeterRegistry meters) {
        this.window = window;
        this.ok = Timer.builder("waitroom.booking.request.latency")
                .tag("outcome", "ok")
                .publishPercentileHistogram()
                .register(meters);
        this.failed = Timer.builder("waitroom.booking.request.latency")
                .tag("outcome", "error")
                .publishPercentileHistogram()
                .register(meters);
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return !(path.startsWith("/events/") && path.contains("/shop"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long start = System.nanoTime();
        boolean error = true;
        try {
            chain.doFilter(request, response);
            error = response.getStatus() >= 500;
        } finally {
            long nanos = System.nanoTime() - start;
            window.record(TimeUnit.NANOSECONDS.toMillis(nanos), error);
            (error ? failed : ok).record(nanos, TimeUnit.NANOSECONDS);
        }
    }
}
