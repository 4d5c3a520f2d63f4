package dev.waitroom.gateway.protect;

import dev.waitroom.contract.routes.RouteTable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Counts requests an event's allow rule let past the admission check ({@code waitroom_gateway_allowed_total{event,
 * rule}}, docs/operating/allow-rules-and-passes.md). One counter per rule, looked up in a map keyed by the table entry
 * the request matched: no meter-registry lookup per request. The rules are the live events' few tens.
 */
@Component
class AllowedRequests {

    private final MeterRegistry meters;

    private final Map<RouteTable.Entry, Counter> counters = new ConcurrentHashMap<>();

    AllowedRequests(MeterRegistry meters) {
        this.meters = meters;
    }

    void count(RouteTable.Entry rule) {
        this.counters.computeIfAbsent(rule, this::counter).increment();
    }

    private Counter counter(RouteTable.Entry rule) {
        return Counter.builder("waitroom.gateway.allowed")
                .description("Requests an event's allow rule let past the admission check")
                .tag("event", rule.eventId().value())
                .tag("rule", rule.path().pattern())
                .register(this.meters);
    }
}
