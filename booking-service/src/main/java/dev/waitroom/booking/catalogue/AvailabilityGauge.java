package dev.waitroom.booking.catalogue;

import dev.waitroom.booking.PeriodicSweep;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * {@code waitroom.booking.seats.available{event,category}}: the seats of each category that can be held now
 * ({@link SeatConditions#TAKEABLE}: available, or held past the hold's deadline), counted on a schedule from the
 * database, the same count as the shop's categories and the coordinator's report. Every booking instance counts the
 * same rows: a panel takes {@code max by (event, category)}. A category that is gone loses its series.
 */
@Configuration(proxyBeanMethods = false)
class AvailabilityGauge extends PeriodicSweep {

    private final JdbcClient jdbc;
    private final MeterRegistry registry;
    private final Map<List<String>, Count> counts = new ConcurrentHashMap<>();

    AvailabilityGauge(JdbcClient jdbc, MeterRegistry registry, AvailabilityGaugeProperties properties) {
        super("seat availability count", properties.refresh());
        this.jdbc = jdbc;
        this.registry = registry;
    }

    @Override
    protected void sweep() {
        Set<List<String>> seen = new HashSet<>();
        jdbc.sql("""
                SELECT c.event_id, c.name, (SELECT count(*) FROM seats s WHERE s.event_id = c.event_id
                                              AND s.category = c.name AND %s) AS available
                FROM seat_categories c
                """.formatted(SeatConditions.TAKEABLE)).query(rs -> {
            List<String> key = List.of(rs.getString(1), rs.getString(2));
            seen.add(key);
            counts.computeIfAbsent(key, this::register).value = rs.getLong(3);
        });
        counts.keySet().removeIf(key -> {
            if (seen.contains(key)) {
                return false;
            }
            registry.remove(counts.get(key).gauge);
            return true;
        });
    }

    private Count register(List<String> key) {
        Count count = new Count();
        count.gauge = Gauge.builder("waitroom.booking.seats.available", count, c -> c.value)
                .description("Seats of the category that can be held now, as last counted")
                .tag("event", key.get(0))
                .tag("category", key.get(1))
                .register(registry);
        return count;
    }

    private static final class Count {
        volatile double value;
        Gauge gauge;
    }
}
