package dev.waitroom.gateway.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.BenchmarkFigures;
import dev.waitroom.testsupport.BenchmarkRun;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What choosing the page's language costs per page request, printed as {@code BENCH} lines (docs/BENCHMARKS.md): an
 * Accept-Language seen before (the cached answer), one never seen (parsed with {@code Locale.LanguageRange} and
 * matched with {@code Locale.lookup}), and the switcher's cookie; and each rendered page's size. One thread, no Spring. Run with {@code ./mvnw -o -pl
 * gateway-service verify -Pbenchmark -Dtest=LanguageChoiceBenchmarkTests}.
 */
@Tag("benchmark")
class LanguageChoiceBenchmarkTests {

    static final int CALLS = 200_000;

    final LanguageChoice choice = new LanguageChoice(MessageBundles.load(MessageBundles.LOCATION));

    @Test
    void choosingTheLanguage() throws Exception {
        AtomicInteger german = new AtomicInteger();
        for (int round = 0; round < 2; round++) { // the first round warms up
            BenchmarkFigures cached = BenchmarkRun.calls("gateway.page.language.cached", 1, CALLS, i -> {
                if (choice.choose(null, "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7")
                        .tag()
                        .equals("de")) {
                    german.incrementAndGet();
                }
            });
            BenchmarkFigures parsed = BenchmarkRun.calls("gateway.page.language.parsed", 1, CALLS, i -> {
                // a header never seen before (a private-use subtag of its own), so the cache never answers
                choice.choose(null, "fr-FR,fr;q=0.9,de-x-" + Integer.toString(i, 36) + ";q=0.8");
            });
            BenchmarkFigures cookie =
                    BenchmarkRun.calls("gateway.page.language.cookie", 1, CALLS, i -> choice.choose("es", "de"));
            if (round == 1) {
                cached.print();
                parsed.print();
                cookie.print();
            }
        }
        assertThat(german).hasValue(2 * CALLS);
    }

    /** The bytes each rendered page sends, raw and gzipped (the gateway compresses text/html for clients that ask). */
    @Test
    void pageSizes() throws Exception {
        MessageBundles bundles = MessageBundles.load(MessageBundles.LOCATION);
        for (String path : new String[] {"waiting-room/waiting.html", "waiting-room/shop.html"}) {
            PageTemplate template = PageTemplate.load(path);
            for (MessageBundles.Bundle bundle : bundles.all()) {
                byte[] page = template.render(bundle, bundles);
                java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
                try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(zipped)) {
                    gzip.write(page);
                }
                BenchmarkFigures.named("gateway.page.bytes")
                        .add("page", path.substring(path.indexOf('/') + 1))
                        .add("lang", bundle.tag())
                        .add("raw", page.length)
                        .add("gzip", zipped.size())
                        .print();
            }
        }
    }
}
