package dev.waitroom.coordinator.routes;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Routes per event (docs/integration/gateway-in-front.md).
 *
 * @param reservedPorts ports of Waitroom's own services and management endpoints that no event's origin may name (the
 *     launcher, compose and Kubernetes list theirs); this instance's own service and management ports are always
 *     added
 * @param defaultProtectOrigin the origin of an event created without {@code protect}, which then protects {@code
 *     /events/{eventId}/shop/**} there (the bundled booking-service: the demo shop is one configured origin); empty:
 *     such an event protects nothing
 * @param publishEvery how often the route table is written to Redis even when nothing changed (it is also written on
 *     every change), so a gateway that missed a write or a Redis that lost it catches up
 */
@ConfigurationProperties("waitroom.routes")
public record RoutesProperties(
        @DefaultValue({}) List<Integer> reservedPorts,
        @DefaultValue("") String defaultProtectOrigin,
        @DefaultValue("2s") Duration publishEvery) {}
