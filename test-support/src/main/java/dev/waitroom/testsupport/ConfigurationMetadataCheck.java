package dev.waitroom.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * Every {@code waitroom.*} key a module's {@code application.yml} sets or reads in a placeholder
 * ({@code ${waitroom.x:default}}) must be described by the configuration metadata on the class path
 * ({@code META-INF/spring-configuration-metadata.json}, written by spring-boot-configuration-processor from the
 * {@code @ConfigurationProperties} classes, and {@code additional-spring-configuration-metadata.json} for keys only
 * read in placeholders). A typo or an undocumented key is reported. A key is covered by a property of its own name, or
 * by a property whose name is a prefix of it at a {@code .} (a map, a list of objects, or a type the processor
 * does not expand). List indices ({@code [0]}) are ignored. Every {@code waitroom.*} property of the metadata must
 * also have a description ({@link #undescribedProperties()}), which operators read in their IDE and in the docs.
 */
public final class ConfigurationMetadataCheck {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(waitroom\\.[A-Za-z0-9.\\-\\[\\]]+)");

    private static final Pattern INDEX = Pattern.compile("\\[\\d+]");

    private ConfigurationMetadataCheck() {}

    /** The module's own metadata, generated into {@code target/classes} by the processor at compile time. */
    public static Path ownMetadata() {
        return Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json");
    }

    /** The property names of every metadata file on the class path (this module's and its libraries'). */
    public static Set<String> documentedProperties() {
        Set<String> names = new TreeSet<>();
        for (Map<?, ?> property : metadataProperties()) {
            if (property.get("name") instanceof String name) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * The configuration reference of a service (docs/reference/configuration/): every {@code waitroom.*} property of the
     * metadata on its class path (its own and its libraries'), sorted, with its type, default and description, as a
     * Markdown table. Generated, so it cannot drift from the code.
     */
    public static String reference(String service) {
        Map<String, Map<?, ?>> byName = new TreeMap<>();
        for (Map<?, ?> property : metadataProperties()) {
            if (property.get("name") instanceof String name && name.startsWith("waitroom.")) {
                byName.putIfAbsent(name, property);
            }
        }
        StringBuilder md = new StringBuilder();
        md.append("# Configuration of ").append(service).append("\n\n");
        md.append("Every `waitroom.*` property ")
                .append(service)
                .append(" reads, generated from the configuration ")
                .append("metadata its build writes (the `@ConfigurationProperties` classes' javadoc). An environment ")
                .append(
                        "variable sets one too: upper case, each `.` made `_` and each `-` dropped, by Spring Boot's relaxed ")
                .append("binding (`waitroom.queue.entry-hints` is `WAITROOM_QUEUE_ENTRYHINTS`). Do not edit: ")
                .append("`./mvnw -pl ")
                .append(service)
                .append(" -am verify -Dtest=ConfigurationMetadataTests ")
                .append("-Dsurefire.failIfNoSpecifiedTests=false -Dwaitroom.docs.write=true` writes it again.\n\n");
        md.append("| property | type | default | description |\n|---|---|---|---|\n");
        byName.forEach((name, property) -> md.append("| `")
                .append(name)
                .append("` | ")
                .append(cell(shortType(property.get("type"))))
                .append(" | ")
                .append(property.get("defaultValue") == null ? "" : "`" + cell(property.get("defaultValue")) + "`")
                .append(" | ")
                .append(cell(property.get("description")))
                .append(" |\n"));
        return md.toString();
    }

    private static String shortType(Object type) {
        return type == null ? "" : type.toString().replaceAll("[a-z][a-z0-9_]*\\.", "");
    }

    private static String cell(Object value) {
        return value == null ? "" : value.toString().replace("|", "\\|").replace("\n", " ");
    }

    /** Every property entry of every metadata file on the class path, as parsed JSON objects. */
    private static List<Map<?, ?>> metadataProperties() {
        List<Map<?, ?>> entries = new ArrayList<>();
        for (String file : List.of(
                "META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            try {
                for (URL url : Collections.list(
                        ConfigurationMetadataCheck.class.getClassLoader().getResources(file))) {
                    try (InputStream in = url.openStream()) {
                        Map<String, Object> metadata = JsonParserFactory.getJsonParser()
                                .parseMap(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                        Object properties = metadata.get("properties");
                        if (properties instanceof List<?> list) {
                            for (Object property : list) {
                                if (property instanceof Map<?, ?> map) {
                                    entries.add(map);
                                }
                            }
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return entries;
    }

    /** The {@code waitroom.*} keys the class path's {@code application.yml} sets or reads, without list indices. */
    public static Set<String> waitroomKeys() {
        Set<String> keys = new TreeSet<>();
        ClassPathResource yml = new ClassPathResource("application.yml");
        try {
            for (PropertySource<?> source : new YamlPropertySourceLoader().load("application.yml", yml)) {
                if (source instanceof EnumerablePropertySource<?> enumerable) {
                    for (String name : enumerable.getPropertyNames()) {
                        if (name.startsWith("waitroom.")) {
                            keys.add(INDEX.matcher(name).replaceAll(""));
                        }
                    }
                }
            }
            Matcher placeholders = PLACEHOLDER.matcher(yml.getContentAsString(StandardCharsets.UTF_8));
            while (placeholders.find()) {
                keys.add(INDEX.matcher(placeholders.group(1)).replaceAll(""));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return keys;
    }

    /** The keys of {@link #waitroomKeys()} no metadata describes; empty when all are documented. */
    public static List<String> undocumentedKeys() {
        Set<String> documented = documentedProperties();
        List<String> undocumented = new ArrayList<>();
        for (String key : waitroomKeys()) {
            boolean covered =
                    documented.contains(key) || documented.stream().anyMatch(name -> key.startsWith(name + "."));
            if (!covered) {
                undocumented.add(key);
            }
        }
        return undocumented;
    }

    /**
     * The {@code waitroom.*} properties of the class path's metadata (this module's and its libraries') without a
     * description: the processor takes it from a field's javadoc, or from a record's {@code @param} tag for the
     * component. Empty when every one is described. A property described in any file counts as described.
     */
    public static List<String> undescribedProperties() {
        Set<String> seen = new TreeSet<>();
        Set<String> described = new TreeSet<>();
        for (Map<?, ?> property : metadataProperties()) {
            if (property.get("name") instanceof String name && name.startsWith("waitroom.")) {
                seen.add(name);
                if (property.get("description") instanceof String description && !description.isBlank()) {
                    described.add(name);
                }
            }
        }
        seen.removeAll(described);
        return List.copyOf(seen);
    }

    /** Whether the module's own metadata file exists (the processor ran). */
    public static boolean ownMetadataExists() {
        return Files.isRegularFile(ownMetadata());
    }
}
