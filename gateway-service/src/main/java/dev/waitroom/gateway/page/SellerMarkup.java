package dev.waitroom.gateway.page;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import dev.waitroom.contract.page.PageDesign;
import dev.waitroom.contract.page.TemplateMarkup;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.safety.Safelist;
import org.springframework.web.util.HtmlUtils;

/**
 * The gateway's side of a seller's page: the coordinator refused anything unsafe before storing it
 * (docs/operating/the-sellers-page.md), and the gateway renders it as a second lock all the same: Mustache over values
 * HTML-escaped beforehand (so no tag form writes raw text) and no partial but Waitroom's part, the result cleaned with the same allow-list of elements and
 * attributes, so nothing in Redis can put a script, a handler or a {@code javascript:} link on the page; the page's
 * CSP ({@code script-src 'self'}) is the third.
 */
final class SellerMarkup {

    /** The contract's {@code TemplateMarkup}, which the coordinator checks templates against. */
    static final Safelist SAFELIST = new Safelist().addTags(TemplateMarkup.TAGS.toArray(String[]::new));

    static {
        TemplateMarkup.ATTRIBUTES.forEach((tag, names) -> SAFELIST.addAttributes(tag, names.toArray(String[]::new)));
        TemplateMarkup.PROTOCOLS.forEach((url, protocols) ->
                SAFELIST.addProtocols(url.tag(), url.attribute(), protocols.toArray(String[]::new)));
    }

    private SellerMarkup() {}

    /**
     * The template rendered for one language and cleaned, split where {@code {{> waitroom}}} stands: before and after;
     * null when the template does not compile or its part is missing (the page then keeps Waitroom's own frame).
     */
    static String[] render(String template, Map<String, Object> variables) {
        String marker = "waitroompart" + UUID.randomUUID().toString().replace("-", "");
        // every value escaped before Mustache sees it, so {{{x}}}, {{&x}} and changed delimiters escape too
        Map<String, Object> escaped = new java.util.HashMap<>();
        variables.forEach((name, value) -> escaped.put(name, escape(String.valueOf(value))));
        Template compiled = Mustache.compiler()
                .escapeHTML(false)
                .strictSections(true)
                .emptyStringIsFalse(true)
                .defaultValue("")
                .withLoader(name -> new StringReader(PageDesign.WAITROOM_PARTIAL.equals(name) ? marker : ""))
                .compile(template);
        String html = compiled.execute(escaped);
        Document.OutputSettings output = new Document.OutputSettings().prettyPrint(false);
        String clean = Jsoup.clean(html, "", SAFELIST, output);
        int at = clean.indexOf(marker);
        if (at < 0) {
            return null;
        }
        return new String[] {
            clean.substring(0, at), clean.substring(at + marker.length()).replace(marker, "")
        };
    }

    /** Whether {@code url} is an {@code https:} image on one of {@code hosts} (host, or host:port). */
    static boolean allowedImage(String url, Collection<String> hosts) {
        try {
            URI uri = new URI(url);
            return "https".equalsIgnoreCase(uri.getScheme())
                    && uri.getHost() != null
                    && uri.getRawUserInfo() == null
                    && hosts.contains(hostOf(uri));
        } catch (URISyntaxException ex) {
            return false;
        }
    }

    static String hostOf(URI uri) {
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        return uri.getPort() < 0 ? host : host + ":" + uri.getPort();
    }

    static String escape(String text) {
        return HtmlUtils.htmlEscape(text, "UTF-8");
    }

    /** The CSP source of an inline element's content: {@code 'sha256-<base64>'}. */
    static String hashSource(String content) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8));
            return "'sha256-" + Base64.getEncoder().encodeToString(digest) + "'";
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
