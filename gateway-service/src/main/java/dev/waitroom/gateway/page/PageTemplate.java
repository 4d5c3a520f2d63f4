package dev.waitroom.gateway.page;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.util.HtmlUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * A page of {@code waiting-room/} with its texts filled in for one language, once at start: {@code {{t:key}}} is the
 * message {@code key} (HTML-escaped; {@code <strong>} is the one markup a message may carry), {@code {{lang}}} and
 * {@code {{dir}}} the language tag and writing direction, {@code {{languages}}} the switcher's options (each language
 * named in itself), {@code {{messages}}} the bundle as JSON for the page's scripts: all of it, or with {@code
 * {{messages:shop+signIn}}} only the keys whose first segment is listed, with {@code {{messages:-shop}}} all but those. A template naming a key
 * English lacks fails the start.
 */
final class PageTemplate {

    private static final Pattern SLOT = Pattern.compile("\\{\\{([a-z]+)(?::([A-Za-z0-9._+-]+))?}}");

    /** {@code <!--name-->…<!--/name-->}: a block kept or dropped by the {@link Frame} a page is rendered in. */
    private static final Pattern BLOCK = Pattern.compile("<!--(own|seller|live)-->(.*?)<!--/\\1-->", Pattern.DOTALL);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String path;

    private final String template;

    private PageTemplate(String path, String template) {
        this.path = path;
        this.template = template;
    }

    static PageTemplate load(String path) {
        try (InputStream in = new ClassPathResource(path).getInputStream()) {
            return new PageTemplate(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException ex) {
            throw new UncheckedIOException("page " + path + " missing from the jar", ex);
        }
    }

    byte[] render(MessageBundles.Bundle bundle, MessageBundles all) {
        return render(bundle, all, Frame.OWN);
    }

    /**
     * The page in {@code frame}: Waitroom's own header and footer ({@code <!--own-->} blocks) or the seller's
     * ({@code <!--seller-->} blocks and {@code {{frame:before}}}, {@code {{frame:after}}}), the brand ({@code
     * {{brand}}}) and colours ({@code {{style}}}), and without the scripts ({@code <!--live-->}) for a preview.
     */
    byte[] render(MessageBundles.Bundle bundle, MessageBundles all, Frame frame) {
        Matcher block = BLOCK.matcher(template);
        StringBuilder framed = new StringBuilder(template.length());
        while (block.find()) {
            boolean keep = switch (block.group(1)) {
                case "own" -> !frame.seller();
                case "seller" -> frame.seller();
                default -> !frame.preview();
            };
            block.appendReplacement(framed, keep ? Matcher.quoteReplacement(block.group(2)) : "");
        }
        block.appendTail(framed);
        Matcher slot = SLOT.matcher(framed);
        StringBuilder page = new StringBuilder(framed.length() + 16_384);
        while (slot.find()) {
            slot.appendReplacement(
                    page, Matcher.quoteReplacement(fill(slot.group(1), slot.group(2), bundle, all, frame)));
        }
        slot.appendTail(page);
        return page.toString().getBytes(StandardCharsets.UTF_8);
    }

    private String fill(String slot, String key, MessageBundles.Bundle bundle, MessageBundles all, Frame frame) {
        return switch (slot) {
            case "brand" -> frame.brand();
            case "style" -> frame.style();
            case "frame" -> "before".equals(key) ? frame.before(bundle.tag()) : frame.after(bundle.tag());
            case "t" -> markup(bundle.text(key));
            case "lang" -> bundle.tag();
            case "dir" -> bundle.direction();
            case "languages" -> options(bundle, all);
            case "messages" -> scriptData(bundle, key);
            default -> throw new IllegalStateException("page " + path + " has an unknown slot {{" + slot + "}}");
        };
    }

    /**
     * What surrounds the page's own part: Waitroom's header and footer ({@link #OWN}) or a seller's template rendered
     * per language, split where {@code {{> waitroom}}} stood ({@code before}, {@code after}: HTML already cleaned);
     * the brand's HTML and the colours' {@code <style>} element, and whether it is an operator's preview.
     */
    record Frame(String brand, String style, Map<String, String[]> sellerParts, boolean preview) {

        static final Frame OWN = new Frame("Waitroom", "", null, false);

        boolean seller() {
            return sellerParts != null;
        }

        String before(String tag) {
            return sellerParts.get(tag)[0];
        }

        String after(String tag) {
            return sellerParts.get(tag)[1];
        }

        Frame asPreview() {
            return new Frame(brand, style, sellerParts, true);
        }
    }

    /** Escaped text, with {@code <strong>} and {@code </strong>} let through. */
    static String markup(String text) {
        return HtmlUtils.htmlEscape(text, "UTF-8")
                .replace("&lt;strong&gt;", "<strong>")
                .replace("&lt;/strong&gt;", "</strong>");
    }

    private static String options(MessageBundles.Bundle current, MessageBundles all) {
        StringBuilder options = new StringBuilder();
        for (MessageBundles.Bundle language : all.all()) {
            options.append("<option value=\"")
                    .append(language.tag())
                    .append("\" lang=\"")
                    .append(language.tag())
                    .append('"')
                    .append(language.tag().equals(current.tag()) ? " selected" : "")
                    .append('>')
                    .append(HtmlUtils.htmlEscape(language.name(), "UTF-8"))
                    .append("</option>");
        }
        return options.toString();
    }

    /** JSON inside {@code <script type="application/json">}: no {@code <} survives, so nothing can close the element. */
    private static String scriptData(MessageBundles.Bundle bundle, String sections) {
        Map<String, Object> messages = new LinkedHashMap<>();
        bundle.messages().forEach((key, message) -> {
            if (inSections(key, sections)) {
                messages.put(key, message);
            }
        });
        return JSON.writeValueAsString(messages).replace("<", "\\u003c");
    }

    /** Whether {@code key}'s first segment is among {@code sections} ({@code a+b}), or not among them ({@code -a+b}). */
    static boolean inSections(String key, String sections) {
        if (sections == null) {
            return true;
        }
        boolean exclude = sections.startsWith("-");
        Set<String> listed = Set.of((exclude ? sections.substring(1) : sections).split("\\+"));
        int dot = key.indexOf('.');
        return listed.contains(dot < 0 ? key : key.substring(0, dot)) != exclude;
    }
}
