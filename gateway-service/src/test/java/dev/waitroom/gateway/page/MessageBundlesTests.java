package dev.waitroom.gateway.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The page's message bundles (docs/operating/page-language.md): every bundle has every English key with the same placeholders,
 * a missing key falls back to English, every key the pages and their scripts name exists, and the rendered pages carry
 * the language, the switcher and the bundle without a way to break out of the data block.
 */
class MessageBundlesTests {

    static final MessageBundles SHIPPED = MessageBundles.load(MessageBundles.LOCATION);

    static final Path PAGES = Path.of("src/main/resources/waiting-room");

    /** A string literal in a script that looks like a message key: dotted words, e.g. 'ahead.exact'. */
    static final Pattern KEY_LITERAL = Pattern.compile("'([a-z][A-Za-z]*(?:\\.[A-Za-z_]+)+)'");

    static final Pattern TEMPLATE_KEY = Pattern.compile("\\{\\{t:([A-Za-z0-9._-]+)}}");

    @Test
    void englishGermanAndSpanishShip() {
        assertThat(SHIPPED.all())
                .extracting(MessageBundles.Bundle::tag)
                .startsWith("en")
                .contains("de", "es");
        assertThat(SHIPPED.all()).extracting(MessageBundles.Bundle::name).contains("English", "Deutsch", "Español");
    }

    @Test
    void everyShippedBundleHasEveryEnglishKeyWithTheSamePlaceholders() {
        Map<String, Object> english = SHIPPED.english().messages();
        for (MessageBundles.Bundle bundle : SHIPPED.all()) {
            assertThat(bundle.missing())
                    .as("keys %s lacks (shown in English)", bundle.tag())
                    .isEmpty();
            assertThat(bundle.messages().keySet()).as(bundle.tag()).isEqualTo(english.keySet());
            english.forEach((key, text) -> {
                Object own = bundle.message(key);
                assertThat(MessageBundles.placeholders(own))
                        .as("placeholders of %s in %s", key, bundle.tag())
                        .isEqualTo(MessageBundles.placeholders(text));
                assertThat(own instanceof Map)
                        .as("%s has plural forms in English, so in %s too", key, bundle.tag())
                        .isEqualTo(text instanceof Map);
            });
        }
    }

    @Test
    void everyKeyThePagesAndScriptsNameIsInEnglish() throws IOException {
        Set<String> named = new TreeSet<>();
        for (String page : new String[] {"waiting.html", "shop.html"}) {
            Matcher m = TEMPLATE_KEY.matcher(read(PAGES.resolve(page)));
            while (m.find()) {
                named.add(m.group(1));
            }
        }
        for (String script : new String[] {"assets/waiting.js", "assets/shop.js", "assets/common.js"}) {
            Matcher m = KEY_LITERAL.matcher(read(PAGES.resolve(script)));
            while (m.find()) {
                named.add(m.group(1));
            }
        }
        assertThat(named).hasSizeGreaterThan(100);
        assertThat(SHIPPED.english().messages().keySet()).containsAll(named);
    }

    @Test
    void eachPageInlinesEveryKeyItsScriptsNameAndNoMore() {
        Map<String, String[]> scripts = Map.of(
                "waiting.html", new String[] {"assets/waiting.js", "assets/common.js"},
                "shop.html", new String[] {"assets/shop.js", "assets/common.js"});
        scripts.forEach((page, sources) -> {
            Set<String> named = new TreeSet<>();
            for (String script : sources) {
                Matcher m = KEY_LITERAL.matcher(read(PAGES.resolve(script)));
                while (m.find()) {
                    named.add(m.group(1));
                }
            }
            for (MessageBundles.Bundle bundle : SHIPPED.all()) {
                Set<String> inlined = inlinedKeys(new String(
                        PageTemplate.load("waiting-room/" + page).render(bundle, SHIPPED), StandardCharsets.UTF_8));
                assertThat(inlined).as("%s in %s", page, bundle.tag()).containsAll(named);
                assertThat(inlined.size())
                        .as(page)
                        .isLessThan(SHIPPED.english().messages().size());
            }
        });
        assertThat(PageTemplate.inSections("shop.hold", "shop+signIn")).isTrue();
        assertThat(PageTemplate.inSections("signIn.link", "shop+signIn")).isTrue();
        assertThat(PageTemplate.inSections("shopping.x", "shop+signIn")).isFalse();
        assertThat(PageTemplate.inSections("shop.hold", "-shop")).isFalse();
        assertThat(PageTemplate.inSections("ahead.exact", "-shop")).isTrue();
        assertThat(PageTemplate.inSections("ahead.exact", null)).isTrue();
    }

    private static Set<String> inlinedKeys(String page) {
        int start = page.indexOf('>', page.indexOf("id=\"waitroom-messages\"")) + 1;
        String json = page.substring(start, page.indexOf("</script>", start));
        Set<String> keys = new TreeSet<>();
        tools.jackson.databind.json.JsonMapper.builder()
                .build()
                .readTree(json)
                .propertyNames()
                .forEach(keys::add);
        return keys;
    }

    @Test
    void everyCaveatAndEveryRuleValueOfTheContractHasItsText() {
        String script = read(PAGES.resolve("assets/waiting.js"));
        Map<String, Object> english = SHIPPED.english().messages();
        for (dev.waitroom.contract.queue.EstimateCaveat caveat : dev.waitroom.contract.queue.EstimateCaveat.values()) {
            assertThat(english).containsKey("caveat." + caveat.name());
            assertThat(script).contains(caveat.name() + ": 'caveat." + caveat.name() + "'");
        }
        Map<String, Class<? extends Enum<?>>> rules = Map.of(
                "presaleOrdering", dev.waitroom.contract.PresaleOrdering.class,
                "expiredOfferPolicy", dev.waitroom.contract.ExpiredOfferPolicy.class,
                "afterPurchase", dev.waitroom.contract.AfterPurchase.class,
                "identityScope", dev.waitroom.contract.IdentityScope.class);
        rules.forEach((rule, values) -> {
            for (Enum<?> value : values.getEnumConstants()) {
                String key = "rule." + rule + "." + value.name();
                assertThat(english).containsKey(key);
                assertThat(script).contains("'" + key + "'");
            }
        });
    }

    @Test
    void aBundleMissingAKeyFallsBackToEnglish() {
        MessageBundles bundles = MessageBundles.load("classpath*:page-language/partial/*.json");
        MessageBundles.Bundle german = bundle(bundles, "de");
        assertThat(german.text("greeting")).isEqualTo("Hallo");
        assertThat(german.text("farewell")).as("the English text").isEqualTo("Goodbye");
        assertThat(german.missing()).containsExactly("farewell");
        assertThat(german.message("people")).isEqualTo(Map.of("one", "{count} Person", "other", "{count} Personen"));
    }

    @Test
    void aPageInALanguageMissingAKeyShowsThatTextInEnglish() {
        Map<String, Object> german =
                new java.util.LinkedHashMap<>(bundle(SHIPPED, "de").messages());
        german.remove("page.lead");
        german.remove("ahead.exact");
        MessageBundles bundles =
                MessageBundles.of(Map.of("en", SHIPPED.english().messages(), "de", german));
        MessageBundles.Bundle partial = bundle(bundles, "de");
        assertThat(partial.missing()).containsExactlyInAnyOrder("page.lead", "ahead.exact");
        String page = new String(
                PageTemplate.load("waiting-room/waiting.html").render(partial, bundles), StandardCharsets.UTF_8);
        assertThat(page)
                .contains("<html lang=\"de\"")
                .contains(PageTemplate.markup(SHIPPED.english().text("page.lead")))
                .contains(bundle(SHIPPED, "de").text("place.heading"))
                .contains("\"ahead.exact\":{\"one\":\"{count} person\",\"other\":\"{count} people\"}");
    }

    static MessageBundles.Bundle bundle(MessageBundles bundles, String tag) {
        return bundles.all().stream()
                .filter(b -> b.tag().equals(tag))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void englishIsRequiredAndFilesAreNamedByTheirLanguageTag() {
        assertThatThrownBy(() -> MessageBundles.load("classpath*:page-language/no-english/*.json"))
                .hasMessageContaining("no English message bundle");
        assertThatThrownBy(() -> MessageBundles.load("classpath*:page-language/misnamed/*.json"))
                .hasMessageContaining("not named <language tag>.json");
        assertThatThrownBy(() -> MessageBundles.canonicalTag("xx-123456789"))
                .hasMessageContaining("not a well-formed language tag");
        assertThat(MessageBundles.canonicalTag("pt-br")).isEqualTo("pt-BR");
    }

    @Test
    void pluralFormsAreCldrCategoriesWithOther() {
        assertThatThrownBy(() -> MessageBundles.of(Map.of("en", Map.of("x", Map.of("one", "a")))))
                .isInstanceOf(IllegalStateException.class);
        for (MessageBundles.Bundle bundle : SHIPPED.all()) {
            bundle.messages().forEach((key, message) -> {
                if (message instanceof Map<?, ?> forms) {
                    Set<String> categories = new TreeSet<>();
                    forms.keySet().forEach(category -> categories.add(String.valueOf(category)));
                    assertThat(categories).as("%s %s", bundle.tag(), key).contains("other");
                    assertThat(MessageBundles.PLURAL_CATEGORIES).containsAll(categories);
                }
            });
        }
    }

    @Test
    void eachLanguageIsRenderedWithItsLangTextsSwitcherAndBundle() {
        PageTemplate waiting = PageTemplate.load("waiting-room/waiting.html");
        for (MessageBundles.Bundle bundle : SHIPPED.all()) {
            String page = new String(waiting.render(bundle, SHIPPED), StandardCharsets.UTF_8);
            assertThat(page)
                    .startsWith("<!doctype html>\n<html lang=\"" + bundle.tag() + "\" dir=\"ltr\">")
                    .doesNotContain("{{")
                    .contains("<title>" + bundle.text("page.title") + "</title>")
                    .contains("<label for=\"language\">" + bundle.text("language.label") + "</label>")
                    .contains("<button type=\"submit\" class=\"button secondary\">" + bundle.text("language.apply"))
                    .contains("<option value=\"" + bundle.tag() + "\" lang=\"" + bundle.tag() + "\" selected>")
                    .contains("<option value=\"de\" lang=\"de\"")
                    .contains(">Deutsch</option>", ">Español</option>", ">English</option>");
            String data = page.substring(
                    page.indexOf("<script type=\"application/json\" id=\"waitroom-messages\">"),
                    page.indexOf("</script>", page.indexOf("waitroom-messages")));
            assertThat(data.substring(data.indexOf('>') + 1)).doesNotContain("<");
        }
    }

    @Test
    void messagesAreEscapedButForStrong() {
        assertThat(PageTemplate.markup("a <strong>b</strong> <script>x</script> & \"q\""))
                .isEqualTo("a <strong>b</strong> &lt;script&gt;x&lt;/script&gt; &amp; &quot;q&quot;");
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
