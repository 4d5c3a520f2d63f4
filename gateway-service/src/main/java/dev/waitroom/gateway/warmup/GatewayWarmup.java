package dev.waitroom.gateway.warmup;

import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * The gateway's warm-up, the reactive twin of web-kit's {@code Warmup} (which lives with the servlet plumbing the
 * gateway does not load): calls each {@link WarmupStep} until it has run {@link WarmupProperties#iterations()} times or its share of
 * {@link WarmupProperties#duration()} is over (an equal share of the time left when it starts), before the service
 * reports ready: a sale opens on processes that have never seen a request, and their first minute ran at a fifth of
 * their warm rate while the JIT caught up (issue #29).
 *
 * <p>It is an {@link ApplicationRunner}: the web server already listens (a step may call it on loopback) and
 * liveness is already CORRECT, while readiness, and with it {@code /actuator/health}, stays REFUSING_TRAFFIC until
 * Spring Boot publishes ACCEPTING_TRAFFIC after the last runner. It runs last, after every other runner. A step that
 * fails is logged and skipped; nothing it throws keeps the service from becoming ready.
 */
@Component
final class GatewayWarmup implements ApplicationRunner, Ordered {

    private static final Logger log = LoggerFactory.getLogger(GatewayWarmup.class);

    private final ApplicationContext context;
    private final WarmupProperties properties;
    private final List<WarmupStep> steps;

    GatewayWarmup(ApplicationContext context, WarmupProperties properties, ObjectProvider<WarmupStep> steps) {
        this.context = context;
        this.properties = properties;
        this.steps = steps.orderedStream().toList();
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!properties.enabled() || steps.isEmpty()) {
            return;
        }
        AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
        long start = System.nanoTime();
        long end = start + properties.duration().toNanos();
        int weightLeft = steps.stream().mapToInt(WarmupStep::weight).sum();
        for (WarmupStep step : steps) {
            // its weight's part of what is left: time a quick step did not need goes to the steps after it
            long now = System.nanoTime();
            runStep(step, now + (end - now) * step.weight() / weightLeft);
            weightLeft -= step.weight();
        }
        log.info(
                "Warm-up done in {} ms; readiness follows",
                Duration.ofNanos(System.nanoTime() - start).toMillis());
    }

    private void runStep(WarmupStep step, long deadline) {
        long start = System.nanoTime();
        int calls = 0;
        try (step) {
            while (calls < properties.iterations() && System.nanoTime() < deadline) {
                step.call(calls);
                calls++;
            }
        } catch (Exception | LinkageError | AssertionError e) {
            log.warn("Warm-up step {} failed after {} calls; going on without it", step.name(), calls, e);
            return;
        }
        log.info(
                "Warm-up step {}: {} calls in {} ms",
                step.name(),
                calls,
                Duration.ofNanos(System.nanoTime() - start).toMillis());
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
