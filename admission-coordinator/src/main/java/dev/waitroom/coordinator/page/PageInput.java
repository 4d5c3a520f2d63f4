package dev.waitroom.coordinator.page;

import java.util.Map;

/**
 * A seller's page as an operator sends it, before {@link PageRules} checked it; {@code texts} maps a language tag to
 * texts by bundle key or, for a text that depends on a count, to plural forms.
 */
public record PageInput(
        String brandName,
        String logoUrl,
        String logoAlt,
        Map<String, String> colours,
        Map<String, Map<String, Object>> texts,
        String template) {}
