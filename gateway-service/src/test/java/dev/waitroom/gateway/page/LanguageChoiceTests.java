package dev.waitroom.gateway.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** How the page's language is chosen: the cookie, else Accept-Language, else English; nothing malformed breaks it. */
class LanguageChoiceTests {

    final LanguageChoice choice = new LanguageChoice(MessageBundlesTests.SHIPPED);

    @ParameterizedTest(name = "Accept-Language {0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7 | de",
                "es-419,es;q=0.9 | es",
                "es-MX | es",
                "fr-FR, fr;q=0.9, es;q=0.5, de;q=0.4 | es",
                "de;q=0, es;q=0.1 | es",
                "en-GB,en;q=0.9,de;q=0.8 | en",
                "pt-BR, ja | en",
                "DE | de"
            })
    void acceptLanguagePicksTheBestMatch(String header, String expected) {
        assertThat(choice.choose(null, header).tag()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "cookie {0} beats Accept-Language de")
    @CsvSource({"es, es", "en, en", "ES, es", "es-AR, es"})
    void theCookieBeatsAcceptLanguage(String cookie, String expected) {
        assertThat(choice.choose(cookie, "de-DE,de;q=0.9").tag()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "cookie [{0}] is ignored")
    @ValueSource(
            strings = {"", "  ", "xx", "de;q=1", "../../etc", "<script>", "es,de", "zz-invalid-!!", "español", "e"})
    void aMalformedOrUnknownCookieFallsBackToAcceptLanguage(String cookie) {
        assertThat(choice.choose(cookie, "de").tag()).isEqualTo("de");
    }

    @ParameterizedTest(name = "Accept-Language [{0}] is English")
    @NullSource
    @ValueSource(
            strings = {
                "",
                "*",
                ";;;",
                "de;q=abc",
                "de;q=2",
                "de-DE-x-aaaaaaaaaaaaaaaa",
                "\u00fc\u00fc",
                ",,,",
                "en;q=0.5;q=0.1,\u0000"
            })
    void aMalformedAcceptLanguageIsEnglish(String header) {
        assertThat(choice.choose(null, header).tag()).isEqualTo("en");
        assertThat(choice.choose("garbage!", header).tag()).isEqualTo("en");
    }

    @org.junit.jupiter.api.Test
    void anOverlongAcceptLanguageIsNotParsed() {
        String header = "de," + "x-aaaaaaaa;q=0.1,".repeat(100);
        assertThat(header.length()).isGreaterThan(LanguageChoice.MAX_HEADER);
        assertThat(choice.choose(null, header).tag()).isEqualTo("en");
    }
}
