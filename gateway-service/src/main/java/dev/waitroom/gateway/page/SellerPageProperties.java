package dev.waitroom.gateway.page;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The deployment's default seller's page, under every event's own (docs/operating/the-sellers-page.md).
 *
 * @param brandName the heading's brand of every event that sets none
 * @param logoUrl an {@code https:} logo on one of {@code imageHosts} (empty: none)
 * @param logoAlt the logo's text alternative (empty: decorative, the brand name stands beside it)
 * @param colours CSS colours by name ({@code text, muted, bg, panel, accent, accent-text}), each {@code #rrggbb}
 * @param texts per shipped language tag, visitor strings by bundle key over the bundle's
 * @param imageHosts the hosts a page's images may come from; an event's page gets the hosts its design uses that are
 *     also here in its {@code img-src}, and no other
 * @param refresh how often the index of event pages is read from Redis ({@code wr:pages})
 */
@ConfigurationProperties("waitroom.gateway.page")
public record SellerPageProperties(
        @DefaultValue("Waitroom") String brandName,
        @DefaultValue("") String logoUrl,
        @DefaultValue("") String logoAlt,
        Map<String, String> colours,
        Map<String, Map<String, String>> texts,
        @DefaultValue({}) List<String> imageHosts,
        @DefaultValue("1s") Duration refresh) {

    private static final Pattern COLOUR = Pattern.compile("#[0-9a-fA-F]{6}");

    public SellerPageProperties {
        colours = colours == null ? Map.of() : Map.copyOf(colours);
        texts = texts == null ? Map.of() : Map.copyOf(texts);
        imageHosts = imageHosts.stream()
                .map(String::trim)
                .filter(h -> !h.isEmpty())
                .map(h -> h.toLowerCase(Locale.ROOT))
                .toList();
        colours.forEach((name, value) -> {
            if (!dev.waitroom.contract.page.PageDesign.COLOURS.contains(name)
                    || !COLOUR.matcher(value).matches()) {
                throw new IllegalStateException("waitroom.gateway.page.colours." + name + " must be one of "
                        + dev.waitroom.contract.page.PageDesign.COLOURS + " and #rrggbb");
            }
        });
        if (!logoUrl.isBlank() && !SellerMarkup.allowedImage(logoUrl, imageHosts)) {
            throw new IllegalStateException(
                    "waitroom.gateway.page.logo-url must be https: on one of waitroom.gateway.page.image-hosts");
        }
    }
}
