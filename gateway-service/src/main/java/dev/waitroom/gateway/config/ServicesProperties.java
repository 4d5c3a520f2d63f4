package dev.waitroom.gateway.config;

import jakarta.validation.constraints.NotNull;
import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the upstream services live (docs/reference/contracts.md).
 *
 * @param queueUrl base URL of the queue-service: joins, status, the edge snapshot and liveness batches
 * @param coordinatorUrl base URL of the admission coordinator: claims, shopping sessions, the ops API, the JWKS
 * @param bookingUrl base URL of the booking service: the shop, payment webhooks, booking's ops routes
 */
@Validated
@ConfigurationProperties("waitroom.services")
public record ServicesProperties(
        @NotNull @DefaultValue("http://127.0.0.1:8081") URI queueUrl,
        @NotNull @DefaultValue("http://127.0.0.1:8082") URI coordinatorUrl,
        @NotNull @DefaultValue("http://127.0.0.1:8083") URI bookingUrl) {}
