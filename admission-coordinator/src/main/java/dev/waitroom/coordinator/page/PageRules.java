package dev.waitroom.coordinator.page;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.MustacheException;
import com.samskivert.mustache.Template;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.TemplateMarkup;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.safety.Safelist;
import org.springframework.core.io.ClassPathResource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a seller's page may hold, checked before it is stored (docs/operating/the-sellers-page.md): colours as {@code
 * #rrggbb} that keep the page's text readable (WCAG AA contrast), texts only for keys of the page's English bundle with
 * no placeholder English lacks, images only {@code https:} from the configured hosts, and a template that is
 * logic-less Mustache with HTML escaping always on (no {@code {{{…}}}}, {@code {{&…}}} or delimiter change), only the
 * documented variables, Waitroom's part exactly once, and, rendered, only the markup of {@link #SAFELIST}: no script,
 * style, event handler, form, frame or {@code javascript:} link. Each refusal names what it refused.
 */
final class PageRules {

    /** The largest template, in UTF-8 bytes. */
    static final int MAX_TEMPLATE_BYTES = 8192;

    /** The longest text of one key, in characters. */
    static final int MAX_TEXT = 500;

    static final int MAX_BRAND = 80;

    static final int MAX_ALT = 200;

    static final int MAX_URL = 2048;

    /** The markup a template may render to (the contract's {@code TemplateMarkup}); anything else is refused, never silently dropped. */
    static final Safelist SAFELIST = new Safelist().addTags(TemplateMarkup.TAGS.toArray(String[]::new));

    static {
        TemplateMarkup.ATTRIBUTES.forEach((tag, names) -> SAFELIST.addAttributes(tag, names.toArray(String[]::new)));
        TemplateMarkup.PROTOCOLS.forEach((url, protocols) ->
                SAFELIST.addProtocols(url.tag(), url.attribute(), protocols.toArray(String[]::new)));
    }

    private static final Pattern COLOUR = Pattern.compile("#[0-9a-fA-F]{6}");

    private static final Pattern TAG = Pattern.compile("[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,7}");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)\\}");

    /** Mustache that could write unescaped text or change what a tag looks like. */
    private static final Pattern UNESCAPED = Pattern.compile("\\{\\{\\s*[{&=]");

    /** The waiting page's own colours (waitroom.css), which a design's colours are checked against when it sets few. */
    static final Map<String, String> DEFAULT_COLOURS = Map.of(
            "text", "#1b1b1b",
            "muted", "#4a4a4a",
            "bg", "#ffffff",
            "panel", "#f4f6f8",
            "accent", "#0a4a94",
            "accent-text", "#ffffff");

    /** Foreground and background pairs the page draws, each needing 4.5:1 (WCAG 2.2, 1.4.3). */
    private static final List<String[]> CONTRAST_PAIRS = List.of(
            new String[] {"text", "bg"},
            new String[] {"text", "panel"},
            new String[] {"muted", "bg"},
            new String[] {"muted", "panel"},
            new String[] {"accent-text", "accent"},
            new String[] {"accent", "bg"});

    private static final Set<String> PLURAL_CATEGORIES = Set.of("zero", "one", "two", "few", "many", "other");

    private final Set<String> imageHosts;

    private final Map<String, Object> english;

    PageRules(List<String> imageHosts, Map<String, Object> english) {
        this.imageHosts = Set.copyOf(imageHosts);
        this.english = Map.copyOf(english);
    }

    /** The rules with the page's English bundle from the classpath (copied from the gateway's at build time). */
    static PageRules of(PageProperties properties) {
        return new PageRules(properties.imageHosts(), englishBundle());
    }

    static Map<String, Object> englishBundle() {
        try (InputStream in = new ClassPathResource("waitroom-page/en.json").getInputStream()) {
            JsonNode root = JsonMapper.builder().build().readTree(in);
            Map<String, Object> messages = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : root.properties()) {
                JsonNode value = entry.getValue();
                if (value.isObject()) {
                    Map<String, String> forms = new LinkedHashMap<>();
                    value.properties()
                            .forEach(f -> forms.put(f.getKey(), f.getValue().asString()));
                    messages.put(entry.getKey(), forms);
                } else {
                    messages.put(entry.getKey(), value.asString());
                }
            }
            return messages;
        } catch (IOException ex) {
            throw new UncheckedIOException("the page's English bundle is missing from the jar", ex);
        }
    }

    /** The design checked, with the image hosts it uses; the version is the store's to give. */
    PageDesign check(PageInput input) {
        String brand = TextFields.optional(ProblemType.PAGE_TEXT_REFUSED, "brandName", input.brandName(), MAX_BRAND);
        String alt = input.logoAlt() == null
                ? null
                : TextFields.optional(ProblemType.PAGE_TEXT_REFUSED, "logoAlt", input.logoAlt(), MAX_ALT);
        Set<String> hosts = new TreeSet<>();
        String logo = null;
        if (input.logoUrl() != null && !input.logoUrl().isBlank()) {
            logo = input.logoUrl().trim();
            hosts.add(imageHost("logoUrl", logo));
        }
        Map<String, String> colours = colours(input.colours());
        Map<String, Map<String, String>> texts = texts(input.texts());
        String template = null;
        if (input.template() != null && !input.template().isBlank()) {
            template = input.template();
            checkTemplate(template, brand, logo, alt, hosts);
        }
        return new PageDesign(0, brand, logo, alt, colours, texts, template, List.copyOf(hosts));
    }

    private String imageHost(String field, String url) {
        if (url.length() > MAX_URL) {
            throw new CoordinatorException(ProblemType.PAGE_IMAGE_HOST_REFUSED, field + " is longer than " + MAX_URL);
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException ex) {
            throw new CoordinatorException(ProblemType.PAGE_IMAGE_HOST_REFUSED, field + " is not a URL");
        }
        if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getRawUserInfo() != null) {
            throw new CoordinatorException(
                    ProblemType.PAGE_IMAGE_HOST_REFUSED, field + " must be an https: URL with a host and no user");
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (!imageHosts.contains(host)) {
            throw new CoordinatorException(
                    ProblemType.PAGE_IMAGE_HOST_REFUSED,
                    field + " is from " + host + ", not one of the allowed image hosts " + new TreeSet<>(imageHosts)
                            + " (waitroom.page.image-hosts)");
        }
        return uri.getPort() < 0 ? host : host + ":" + uri.getPort();
    }

    private static Map<String, String> colours(Map<String, String> given) {
        Map<String, String> colours = new LinkedHashMap<>();
        if (given == null) {
            return colours;
        }
        given.forEach((name, value) -> {
            if (!PageDesign.COLOURS.contains(name)) {
                throw new CoordinatorException(
                        ProblemType.PAGE_COLOUR_REFUSED,
                        "colours." + name + " is not one of the page's colours " + PageDesign.COLOURS);
            }
            if (value == null || !COLOUR.matcher(value).matches()) {
                throw new CoordinatorException(ProblemType.PAGE_COLOUR_REFUSED, "colours." + name + " must be #rrggbb");
            }
            colours.put(name, value.toLowerCase(Locale.ROOT));
        });
        Map<String, String> effective = new HashMap<>(DEFAULT_COLOURS);
        effective.putAll(colours);
        for (String[] pair : CONTRAST_PAIRS) {
            double ratio = contrast(effective.get(pair[0]), effective.get(pair[1]));
            if (ratio < 4.5) {
                throw new CoordinatorException(
                        ProblemType.PAGE_COLOUR_REFUSED,
                        String.format(
                                Locale.ROOT,
                                "colours %s on %s have a contrast of %.2f:1; the page needs 4.5:1 (WCAG 1.4.3)",
                                pair[0],
                                pair[1],
                                ratio));
            }
        }
        return colours;
    }

    /** The WCAG contrast ratio of two {@code #rrggbb} colours. */
    static double contrast(String a, String b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    private static double luminance(String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        return 0.2126 * channel(rgb >> 16) + 0.7152 * channel(rgb >> 8) + 0.0722 * channel(rgb);
    }

    private static double channel(int value) {
        double c = (value & 0xff) / 255.0;
        return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }

    private Map<String, Map<String, String>> texts(Map<String, Map<String, Object>> given) {
        Map<String, Map<String, String>> texts = new LinkedHashMap<>();
        if (given == null) {
            return texts;
        }
        given.forEach((tag, messages) -> {
            if (tag == null || !TAG.matcher(tag).matches()) {
                throw new CoordinatorException(
                        ProblemType.PAGE_TEXT_REFUSED, "texts: " + tag + " is not a language tag");
            }
            Map<String, String> checked = new LinkedHashMap<>();
            if (messages != null) {
                messages.forEach((key, value) -> checked.put(key, text(tag, key, value)));
            }
            texts.put(Locale.forLanguageTag(tag).toLanguageTag(), checked);
        });
        return texts;
    }

    /** One override, kept as JSON text when it has plural forms, so every stored text is a string. */
    private String text(String tag, String key, Object value) {
        Object own = english.get(key);
        String field = "texts." + tag + "." + key;
        if (own == null) {
            throw new CoordinatorException(
                    ProblemType.PAGE_TEXT_REFUSED,
                    field + ": the page has no text " + key + " (docs/operating/page-language.md)");
        }
        Set<String> allowed = placeholders(own);
        if (own instanceof Map<?, ?>) {
            if (!(value instanceof Map<?, ?> forms) || !forms.containsKey("other")) {
                throw new CoordinatorException(
                        ProblemType.PAGE_TEXT_REFUSED,
                        field + " depends on a count: give plural forms, 'other' among them");
            }
            Map<String, String> checked = new LinkedHashMap<>();
            forms.forEach((category, form) -> {
                if (!PLURAL_CATEGORIES.contains(String.valueOf(category)) || !(form instanceof String s)) {
                    throw new CoordinatorException(
                            ProblemType.PAGE_TEXT_REFUSED,
                            field + "." + category + " is not a plural category with a text");
                }
                checked.put(String.valueOf(category), plain(field + "." + category, s, allowed));
            });
            return JsonMapper.builder().build().writeValueAsString(checked);
        }
        if (!(value instanceof String s)) {
            throw new CoordinatorException(ProblemType.PAGE_TEXT_REFUSED, field + " must be a text");
        }
        return plain(field, s, allowed);
    }

    private static String plain(String field, String text, Set<String> allowed) {
        String checked = TextFields.required(ProblemType.PAGE_TEXT_REFUSED, field, text, MAX_TEXT);
        Set<String> used = placeholders(checked);
        used.removeAll(allowed);
        if (!used.isEmpty()) {
            throw new CoordinatorException(
                    ProblemType.PAGE_TEXT_REFUSED, field + " names placeholders the page does not fill: " + used);
        }
        return checked;
    }

    private static Set<String> placeholders(Object message) {
        Set<String> names = new TreeSet<>();
        List<Object> texts = message instanceof Map<?, ?> forms ? List.copyOf(forms.values()) : List.of(message);
        for (Object text : texts) {
            Matcher m = PLACEHOLDER.matcher(String.valueOf(text));
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private void checkTemplate(String template, String brand, String logo, String alt, Set<String> hosts) {
        if (template.getBytes(StandardCharsets.UTF_8).length > MAX_TEMPLATE_BYTES) {
            throw new CoordinatorException(
                    ProblemType.PAGE_TOO_LARGE, "template is larger than " + MAX_TEMPLATE_BYTES + " bytes");
        }
        if (UNESCAPED.matcher(template).find()) {
            throw new CoordinatorException(
                    ProblemType.PAGE_MARKUP_REFUSED,
                    "template: {{{…}}}, {{&…}} and delimiter changes are not allowed: every variable is HTML-escaped");
        }
        Template compiled;
        int[] waitroom = {0};
        try {
            compiled = Mustache.compiler()
                    .escapeHTML(true)
                    .strictSections(true)
                    .emptyStringIsFalse(true)
                    .withLoader(name -> {
                        if (!PageDesign.WAITROOM_PARTIAL.equals(name)) {
                            throw new CoordinatorException(
                                    ProblemType.PAGE_MARKUP_REFUSED,
                                    "template: {{> " + name + "}} is not a partial; only {{> waitroom}} is");
                        }
                        waitroom[0]++;
                        return new StringReader("<div></div>");
                    })
                    .compile(template);
            compiled.visit(new Mustache.Visitor() {
                @Override
                public void visitText(String text) {}

                @Override
                public void visitVariable(String name) {
                    variable(name);
                }

                @Override
                public boolean visitInclude(String name) {
                    return true;
                }

                @Override
                public boolean visitSection(String name) {
                    variable(name);
                    return true;
                }

                @Override
                public boolean visitInvertedSection(String name) {
                    variable(name);
                    return true;
                }
            });
        } catch (MustacheException ex) {
            throw new CoordinatorException(ProblemType.PAGE_MARKUP_REFUSED, "template: " + ex.getMessage());
        }
        Map<String, Object> values = new HashMap<>();
        values.put("brandName", brand == null ? "Waitroom" : brand);
        values.put("logoUrl", logo == null ? "" : logo);
        values.put("logoAlt", alt == null ? "" : alt);
        values.put("eventId", "sample-event");
        values.put("lang", "en");
        values.put("dir", "ltr");
        String html;
        try {
            html = compiled.execute(values);
        } catch (MustacheException ex) {
            throw new CoordinatorException(ProblemType.PAGE_MARKUP_REFUSED, "template: " + ex.getMessage());
        }
        if (waitroom[0] != 1) {
            throw new CoordinatorException(
                    ProblemType.PAGE_MARKUP_REFUSED,
                    "template: {{> waitroom}} (where Waitroom's part of the page goes) must appear exactly once, not "
                            + waitroom[0] + " times");
        }
        checkMarkup(html, hosts);
    }

    private static void variable(String name) {
        if (!PageDesign.VARIABLES.contains(name)) {
            throw new CoordinatorException(
                    ProblemType.PAGE_MARKUP_REFUSED,
                    "template: {{" + name + "}} is not a page variable " + PageDesign.VARIABLES);
        }
    }

    /** Every element, attribute and URL of the rendered template, then the allow-list as a whole. */
    private void checkMarkup(String html, Set<String> hosts) {
        Document body = Jsoup.parseBodyFragment(html);
        for (Element element : body.body().getAllElements()) {
            if (element == body.body()) {
                continue;
            }
            String tag = element.normalName();
            if (!SAFELIST.isSafeTag(tag)) {
                throw new CoordinatorException(
                        ProblemType.PAGE_MARKUP_REFUSED, "template: the element <" + tag + "> is not allowed");
            }
            // what would run first, whatever the order of the attributes; then where each points
            for (Attribute attribute : element.attributes()) {
                String name = attribute.getKey().toLowerCase(Locale.ROOT);
                if (name.startsWith("on")) {
                    throw new CoordinatorException(
                            ProblemType.PAGE_MARKUP_REFUSED,
                            "template: the event handler attribute " + name + " on <" + tag + "> is not allowed");
                }
                String compact =
                        attribute.getValue().replaceAll("[\\s\\x00-\\x1f]", "").toLowerCase(Locale.ROOT);
                if (compact.startsWith("javascript:")
                        || compact.startsWith("vbscript:")
                        || compact.startsWith("data:") && !tag.equals("img")) {
                    throw new CoordinatorException(
                            ProblemType.PAGE_MARKUP_REFUSED,
                            "template: a " + compact.substring(0, compact.indexOf(':') + 1) + " URL in " + name
                                    + " of <" + tag + "> is not allowed");
                }
            }
            for (Attribute attribute : element.attributes()) {
                String name = attribute.getKey().toLowerCase(Locale.ROOT);
                if (tag.equals("img") && name.equals("src")) {
                    hosts.add(
                            imageHost("template <img src>", attribute.getValue().trim()));
                } else if (!SAFELIST.isSafeAttribute(tag, element, attribute)) {
                    throw new CoordinatorException(
                            ProblemType.PAGE_MARKUP_REFUSED,
                            "template: the attribute " + name + " on <" + tag + "> is not allowed"
                                    + (name.equals("href") ? " (links are absolute http:, https: or mailto:)" : ""));
                }
            }
        }
        if (!Jsoup.isValid(html, SAFELIST)) {
            throw new CoordinatorException(
                    ProblemType.PAGE_MARKUP_REFUSED, "template: markup that the allow-list does not keep as it is");
        }
    }
}
