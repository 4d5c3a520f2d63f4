package dev.waitroom.contract.page;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One event's seller's page as the coordinator stores and validates it and the gateway renders it
 * (docs/operating/the-sellers-page.md), carried as JSON in {@link dev.waitroom.contract.RedisKeys#page}. Every field but
 * the version may be null or empty: what is missing comes from the gateway's deployment default, then from Waitroom's
 * own page.
 *
 * @param version increases with every change; the gateway renders an event's page again only when it changes
 * @param brandName the heading's brand in place of "Waitroom"
 * @param logoUrl an {@code https:} image on one of the allowed image hosts
 * @param logoAlt the logo's text alternative (empty: decorative)
 * @param colours CSS colours by name ({@link #COLOURS}), each {@code #rrggbb}
 * @param texts per language tag, visitor strings by bundle key, overriding the bundle's
 * @param template the page's body as a logic-less Mustache template, or null for Waitroom's own
 * @param imageHosts the hosts the logo and the template's images come from: the page's {@code img-src}
 */
public record PageDesign(
        long version,
        String brandName,
        String logoUrl,
        String logoAlt,
        Map<String, String> colours,
        Map<String, Map<String, String>> texts,
        String template,
        List<String> imageHosts) {

    /** The colours a design may set, each the CSS custom property {@code --<name>} of the page's style sheet. */
    public static final List<String> COLOURS = List.of("text", "muted", "bg", "panel", "accent", "accent-text");

    /** The template variables (docs/operating/the-sellers-page.md); anything else is refused. */
    public static final List<String> VARIABLES = List.of("brandName", "logoUrl", "logoAlt", "eventId", "lang", "dir");

    /** The partial marking where Waitroom's own part of the page goes: exactly once in every template. */
    public static final String WAITROOM_PARTIAL = "waitroom";

    public PageDesign {
        colours = colours == null ? Map.of() : new TreeMap<>(colours);
        Map<String, Map<String, String>> byLanguage = new TreeMap<>();
        if (texts != null) {
            texts.forEach((tag, messages) ->
                    byLanguage.put(tag, messages == null ? Map.of() : new LinkedHashMap<>(messages)));
        }
        texts = byLanguage;
        imageHosts = imageHosts == null ? List.of() : List.copyOf(imageHosts);
    }
}
