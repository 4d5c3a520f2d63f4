package dev.waitroom.coordinator.routes;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Writes the route table to Redis on every change and every {@code waitroom.routes.publish-every}; every coordinator
 * instance writes the same table from PostgreSQL, so any of them can. A failed write is logged: the gateways keep the
 * last table they read and the next write catches up.
 */
@Component
@EnableScheduling
public class RouteTablePublisher {

    private static final Logger log = LoggerFactory.getLogger(RouteTablePublisher.class);

    private final Routes routes;

    private final RouteTableStore store;

    RouteTablePublisher(Routes routes, RouteTableStore store) {
        this.routes = routes;
        this.store = store;
    }

    @Scheduled(fixedDelayString = "${waitroom.routes.publish-every:2s}")
    public void publishQuietly() {
        try {
            this.store.write(this.routes.table());
        } catch (RuntimeException ex) {
            log.warn("Route table not published: {}", ex.toString());
        }
    }
}
