package dev.waitroom.contract.page;

import java.util.List;
import java.util.Map;

/**
 * The markup a seller's template may render to (docs/operating/the-sellers-page.md): the coordinator refuses a
 * template that renders anything else, and the gateway cleans what Redis holds to the same list before serving it.
 * Both build their jsoup {@code Safelist} from these lists, so the two can never disagree.
 */
public final class TemplateMarkup {

    /** The elements. */
    public static final List<String> TAGS = List.of(
            "header", "footer", "nav", "section", "aside", "div", "span", "p", "h2", "h3", "h4", "ul", "ol", "li", "a",
            "img", "strong", "em", "b", "i", "small", "br", "hr", "address");

    /** The attributes by element; {@code :all} is every element. */
    public static final Map<String, List<String>> ATTRIBUTES = Map.of(
            ":all", List.of("class", "lang", "dir", "title"),
            "a", List.of("href", "rel"),
            "img", List.of("src", "alt", "width", "height"));

    /** The URL protocols an attribute may name, by element and attribute. */
    public static final Map<UrlAttribute, List<String>> PROTOCOLS = Map.of(
            new UrlAttribute("a", "href"), List.of("https", "http", "mailto"),
            new UrlAttribute("img", "src"), List.of("https"));

    private TemplateMarkup() {}

    /** An attribute holding a URL. */
    public record UrlAttribute(String tag, String attribute) {}
}
