package dev.waitroom.booking.faults;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.springframework.web.filter.OncePerRequestFilter;

/** Applies injected latency and errors to shop requests (only while ops have switched them on). */
final class FaultInjectionFilter extends OncePerRequestFilter {

    private final Faults faults;

    FaultInjectionFilter(Faults faults) {
        this.faults = faults;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !isShopRoute(request.getRequestURI());
    }

    static boolean isShopRoute(String path) {
        if (!path.startsWith("/events/")) {
            return false;
        }
        int slash = path.indexOf('/', "/events/".length());
        return slash > 0 && (path.startsWith("/shop/", slash) || path.equals(path.substring(0, slash) + "/shop"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        FaultSettings settings = faults.current();
        if (settings.latencyMs() > 0) {
            try {
                // Deliberate: this is the injected slowness itself, holding the request thread like a slow backend.
                TimeUnit.MILLISECONDS.sleep(settings.latencyMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (settings.errorRate() > 0 && ThreadLocalRandom.current().nextDouble() < settings.errorRate()) {
            ProblemResponses.write(
                    response, ProblemType.INJECTED_FAULT, "fault injection is on for this service", request);
            return;
        }
        chain.doFilter(request, response);
    }
}
