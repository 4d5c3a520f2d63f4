package dev.waitroom.gateway.page;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The visitor-facing texts of the waiting page and the shop, one JSON file per language ({@code
 * waiting-room/i18n/<language tag>.json}), found on the classpath at start: adding a language is adding its file
 * (docs/operating/page-language.md). English is complete and the fallback: a key another bundle lacks is taken from English.
 *
 * <p>A message is a string with {@code {name}} placeholders, or, for a text that depends on a count, an object of
 * CLDR plural categories ({@code zero one two few many other}, {@code other} required) that the page picks with {@code
 * Intl.PluralRules}.
 */
final class MessageBundles {

    static final String FALLBACK = "en";

    static final String LOCATION = "classpath*:waiting-room/i18n/*.json";

    static final Set<String> PLURAL_CATEGORIES = Set.of("zero", "one", "two", "few", "many", "other");

    private static final Logger log = LoggerFactory.getLogger(MessageBundles.class);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Pattern FILE = Pattern.compile("([A-Za-z0-9-]{2,35})\\.json");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)\\}");

    /** Languages written right to left, by primary subtag. */
    private static final Set<String> RIGHT_TO_LEFT = Set.of("ar", "dv", "fa", "he", "ckb", "ps", "ur", "yi");

    private final List<Bundle> bundles;

    private MessageBundles(List<Bundle> bundles) {
        this.bundles = List.copyOf(bundles);
    }

    /** Every bundle at {@code locationPattern} (files named by their language tag), merged over English. */
    static MessageBundles load(String locationPattern) {
        Map<String, Map<String, Object>> raw = new TreeMap<>();
        try {
            for (Resource resource : new PathMatchingResourcePatternResolver().getResources(locationPattern)) {
                String name = resource.getFilename();
                Matcher file = FILE.matcher(name == null ? "" : name);
                if (!file.matches()) {
                    throw new IllegalStateException("message bundle " + resource + " is not named <language tag>.json");
                }
                String tag = canonicalTag(file.group(1));
                try (InputStream in = resource.getInputStream()) {
                    if (raw.put(tag, parse(tag, JSON.readTree(in))) != null) {
                        throw new IllegalStateException("two message bundles for " + tag);
                    }
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("message bundles at " + locationPattern + " unreadable", ex);
        }
        return of(raw);
    }

    /** Bundles from already-read messages by language tag; English must be among them. */
    static MessageBundles of(Map<String, Map<String, Object>> byTag) {
        byTag.forEach(MessageBundles::validate);
        Map<String, Object> english = byTag.get(FALLBACK);
        if (english == null) {
            throw new IllegalStateException("no English message bundle (" + FALLBACK + ".json): it is the fallback");
        }
        List<Bundle> bundles = new ArrayList<>();
        bundles.add(new Bundle(FALLBACK, english, List.of()));
        byTag.forEach((tag, messages) -> {
            if (tag.equals(FALLBACK)) {
                return;
            }
            Map<String, Object> merged = new LinkedHashMap<>();
            List<String> missing = new ArrayList<>();
            english.forEach((key, text) -> {
                Object own = messages.get(key);
                merged.put(key, own != null ? own : text);
                if (own == null) {
                    missing.add(key);
                }
            });
            messages.keySet().stream()
                    .filter(key -> !english.containsKey(key))
                    .forEach(key -> log.warn("message bundle {} has key {} that English lacks: not used", tag, key));
            if (!missing.isEmpty()) {
                log.warn("message bundle {} lacks {} keys, shown in English: {}", tag, missing.size(), missing);
            }
            bundles.add(new Bundle(tag, merged, missing));
        });
        return new MessageBundles(bundles);
    }

    /**
     * These bundles with a seller's texts over them (docs/operating/the-sellers-page.md): {@code texts} maps a shipped
     * language's tag to texts by key; a key the bundle lacks, a language not shipped, or a text whose form differs
     * from English's (a text for plural forms, or plural forms, stored as JSON, for a text) is left out and logged. A
     * key the seller leaves out keeps the bundle's text, so the page never lacks one.
     */
    MessageBundles withTexts(Map<String, Map<String, String>> texts) {
        if (texts.isEmpty()) {
            return this;
        }
        List<Bundle> overridden = new ArrayList<>();
        for (Bundle bundle : bundles) {
            Map<String, String> own = texts.get(bundle.tag());
            if (own == null || own.isEmpty()) {
                overridden.add(bundle);
                continue;
            }
            Map<String, Object> merged = new LinkedHashMap<>(bundle.messages());
            own.forEach((key, text) -> {
                Object current = merged.get(key);
                Object replacement = current instanceof Map<?, ?> ? pluralForms(text) : current == null ? null : text;
                if (replacement == null) {
                    log.warn("seller's text {}:{} not used: the page has no such text of that form", bundle.tag(), key);
                } else {
                    merged.put(key, replacement);
                }
            });
            overridden.add(new Bundle(bundle.tag(), merged, bundle.missing()));
        }
        return new MessageBundles(overridden);
    }

    private static Map<String, Object> pluralForms(String json) {
        try {
            JsonNode forms = JSON.readTree(json);
            if (!forms.isObject() || !forms.has("other")) {
                return null;
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> form : forms.properties()) {
                if (!PLURAL_CATEGORIES.contains(form.getKey())
                        || !form.getValue().isString()) {
                    return null;
                }
                out.put(form.getKey(), form.getValue().asString());
            }
            return Collections.unmodifiableMap(out);
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    /** English first, then the others by tag. */
    List<Bundle> all() {
        return bundles;
    }

    Bundle english() {
        return bundles.get(0);
    }

    static String canonicalTag(String fileTag) {
        Locale locale = Locale.forLanguageTag(fileTag);
        String tag = locale.toLanguageTag();
        if (locale.getLanguage().isEmpty() || !tag.equalsIgnoreCase(fileTag)) {
            throw new IllegalStateException("message bundle " + fileTag + ".json: not a well-formed language tag");
        }
        return tag;
    }

    /** The {@code {name}} placeholders of a message (of every plural form). */
    static Set<String> placeholders(Object message) {
        Set<String> names = new java.util.TreeSet<>();
        List<Object> texts = message instanceof Map<?, ?> forms ? new ArrayList<>(forms.values()) : List.of(message);
        for (Object text : texts) {
            Matcher m = PLACEHOLDER.matcher(String.valueOf(text));
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** Every message a text, or plural forms: CLDR categories with texts, 'other' among them. */
    private static void validate(String tag, Map<String, Object> messages) {
        messages.forEach((key, message) -> {
            if (message instanceof Map<?, ?> forms) {
                forms.forEach((category, text) -> {
                    if (!PLURAL_CATEGORIES.contains(String.valueOf(category)) || !(text instanceof String)) {
                        throw new IllegalStateException("message " + tag + ":" + key
                                + " has a form that is not a plural category with a text: " + category);
                    }
                });
                if (!forms.containsKey("other")) {
                    throw new IllegalStateException("message " + tag + ":" + key + " lacks the plural form 'other'");
                }
            } else if (!(message instanceof String)) {
                throw new IllegalStateException("message " + tag + ":" + key + " is neither a text nor plural forms");
            }
        });
    }

    private static Map<String, Object> parse(String tag, JsonNode root) {
        if (!root.isObject()) {
            throw new IllegalStateException("message bundle " + tag + " is not a JSON object");
        }
        Map<String, Object> messages = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : root.properties()) {
            JsonNode value = entry.getValue();
            if (value.isString()) {
                messages.put(entry.getKey(), value.asString());
            } else if (value.isObject()) {
                Map<String, Object> forms = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> form : value.properties()) {
                    forms.put(
                            form.getKey(),
                            form.getValue().isString() ? form.getValue().asString() : form.getValue());
                }
                messages.put(entry.getKey(), Collections.unmodifiableMap(forms));
            } else {
                throw new IllegalStateException(
                        "message " + tag + ":" + entry.getKey() + " is neither a text nor plural forms");
            }
        }
        return messages;
    }

    /**
     * One language's messages, English filling what it lacks ({@code missing}). {@code name} is the language named
     * in itself, as the switcher shows it.
     */
    record Bundle(String tag, Map<String, Object> messages, List<String> missing) {

        Bundle {
            messages = Collections.unmodifiableMap(new LinkedHashMap<>(messages));
            missing = List.copyOf(missing);
        }

        Locale locale() {
            return Locale.forLanguageTag(tag);
        }

        String name() {
            return text("language.name");
        }

        String direction() {
            return RIGHT_TO_LEFT.contains(locale().getLanguage()) ? "rtl" : "ltr";
        }

        /** A plain message (no plural forms); fails for an unknown key, so a page naming one does not start. */
        String text(String key) {
            Object message = messages.get(key);
            if (!(message instanceof String text)) {
                throw new IllegalStateException(
                        message == null
                                ? "no message " + key + " in the English bundle"
                                : "message " + key + " has plural forms: the page picks them, not the template");
            }
            return text;
        }

        /** The message, a text or plural forms, or null. */
        Object message(String key) {
            return messages.get(key);
        }
    }
}
