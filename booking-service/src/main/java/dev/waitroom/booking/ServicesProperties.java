package dev.waitroom.booking;

import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the other services are ({@code WAITROOM_COORDINATOR_URL}).
 *
 * @param coordinatorUrl base URL of the admission coordinator's internal API: health reports, sold-out, seat
 *     categories, purchase completions
 */
@ConfigurationProperties("waitroom.services")
public record ServicesProperties(
        @DefaultValue("http://127.0.0.1:8082") URI coordinatorUrl) {}
