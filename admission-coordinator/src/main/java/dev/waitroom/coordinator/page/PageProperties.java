package dev.waitroom.coordinator.page;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The seller's page (docs/operating/the-sellers-page.md).
 *
 * @param imageHosts the hosts a page's logo and template images may come from ({@code https:} only); the gateway has
 *     its own list ({@code waitroom.gateway.page.image-hosts}) and puts only hosts on both into an event's {@code
 *     img-src}. Empty: no event page may show an image from anywhere
 * @param publishEvery how often every page is written to Redis even when nothing changed (it is also written on every
 *     change), so a gateway that missed a write or a Redis that lost it catches up
 */
@ConfigurationProperties("waitroom.page")
public record PageProperties(
        @DefaultValue({}) List<String> imageHosts,
        @DefaultValue("5s") Duration publishEvery) {

    public PageProperties {
        imageHosts = imageHosts.stream()
                .map(String::trim)
                .filter(host -> !host.isEmpty())
                .map(host -> host.toLowerCase(Locale.ROOT))
                .toList();
    }
}
