package dev.waitroom.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * What a service module's own configuration reads, from its sources: the keys and placeholders of its
 * {@code application*.yml}, {@code @Value("${…}")} placeholders, and the components of its
 * {@code @ConfigurationProperties} records (a nested record such as the web kit's {@code Security} under
 * {@code "waitroom"} included), the web kit's as well when the module depends on it. A store's password is read where
 * the module has the store's client.
 */
final class ModuleConfiguration {

    private static final Pattern PROPERTIES_PREFIX = Pattern.compile("@ConfigurationProperties\\(\"([a-z0-9.-]+)\"\\)");

    private static final String CALLERS = "waitroom.security.callers.";

    private final Path module;
    private final String pom;
    private final List<String> javaSources;
    private final Set<String> yamlKeys;
    private final List<String> texts;

    private ModuleConfiguration(Path module, String pom, List<String> javaSources, Set<String> yamlKeys) {
        this.module = module;
        this.pom = pom;
        this.javaSources = javaSources;
        this.yamlKeys = yamlKeys;
        this.texts = new ArrayList<>(javaSources);
    }

    static ModuleConfiguration of(Path root, String module) {
        try {
            Path dir = root.resolve(module);
            String pom = Files.readString(dir.resolve("pom.xml"));
            List<Path> sourceRoots = new ArrayList<>(List.of(dir.resolve("src/main")));
            if (pom.contains("<artifactId>waitroom-web-kit</artifactId>")) {
                sourceRoots.add(root.resolve("web-kit/src/main"));
            }
            List<String> java = new ArrayList<>();
            Set<String> yamlKeys = new TreeSet<>();
            List<String> yamlTexts = new ArrayList<>();
            for (Path sources : sourceRoots) {
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path file : files.filter(Files::isRegularFile).toList()) {
                        String name = file.getFileName().toString();
                        if (name.endsWith(".java")) {
                            java.add(Files.readString(file));
                        } else if (name.matches("application.*\\.ya?ml")) {
                            String text = Files.readString(file);
                            yamlTexts.add(text);
                            for (Object document : new Yaml(new LoaderOptions()).loadAll(text)) {
                                if (document instanceof Map<?, ?> map) {
                                    flatten("", map, yamlKeys);
                                }
                            }
                        }
                    }
                }
            }
            ModuleConfiguration configuration = new ModuleConfiguration(dir, pom, java, yamlKeys);
            configuration.texts.addAll(yamlTexts);
            return configuration;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void flatten(String prefix, Map<?, ?> map, Set<String> keys) {
        map.forEach((k, v) -> {
            String key = prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k;
            keys.add(key);
            if (v instanceof Map<?, ?> nested) {
                flatten(key, nested, keys);
            }
        });
    }

    /**
     * Whether the module reads {@code property}. A caller's hash, {@code waitroom.security.callers.<caller>}, is read
     * where the module has the map and names routes for that caller ({@code waitroom.web.callers.<caller>}): a
     * receiver refuses to start with a hash of a caller it gives no route.
     */
    boolean reads(String property) {
        if (property.startsWith(CALLERS)) {
            String caller = property.substring(CALLERS.length());
            return reads(CALLERS.substring(0, CALLERS.length() - 1))
                    && yamlKeys.contains("waitroom.web.callers." + caller);
        }
        if (property.startsWith("spring.datasource.")) {
            return pom.contains("<artifactId>postgresql</artifactId>");
        }
        if (property.startsWith("spring.data.redis.")) {
            return pom.contains("redis");
        }
        if (yamlKeys.stream().anyMatch(k -> k.equals(property) || k.startsWith(property + "."))) {
            return true;
        }
        if (texts.stream().anyMatch(t -> t.contains("${" + property + ":") || t.contains("${" + property + "}"))) {
            return true;
        }
        int dot = property.lastIndexOf('.');
        String parent = property.substring(0, dot);
        Pattern component = Pattern.compile("[\\w>]\\s+" + camel(property.substring(dot + 1)) + "\\s*[,)]");
        for (String source : javaSources) {
            Matcher annotation = PROPERTIES_PREFIX.matcher(source);
            while (annotation.find()) {
                String prefix = annotation.group(1);
                if (prefix.equals(parent) && component.matcher(source).find()) {
                    return true;
                }
                // a nested record: @ConfigurationProperties("waitroom") with record Security(... String opsToken ...)
                if (parent.startsWith(prefix + ".")
                        && !parent.substring(prefix.length() + 1).contains(".")) {
                    String nested = camel(parent.substring(prefix.length() + 1));
                    String type = Character.toUpperCase(nested.charAt(0)) + nested.substring(1);
                    int record = source.indexOf("record " + type + "(");
                    if (record >= 0
                            && component.matcher(source.substring(record)).find()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static String camel(String kebab) {
        StringBuilder camel = new StringBuilder();
        boolean upper = false;
        for (char c : kebab.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                camel.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return camel.toString();
    }

    @Override
    public String toString() {
        return "ModuleConfiguration[" + module + "]";
    }
}
