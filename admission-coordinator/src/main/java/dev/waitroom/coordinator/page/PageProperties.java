package dev.waitroom.coordinator.page;

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
 */
@ConfigurationProperties("waitroom.page")
public record PageProperties(@DefaultValue({}) List<String> imageHosts) {

    public PageProperties {
        imageHosts = imageHosts.stream()
                .map(String::trim)
                .filter(host -> !host.isEmpty())
                .map(host -> host.toLowerCase(Locale.ROOT))
                .toList();
    }
}
