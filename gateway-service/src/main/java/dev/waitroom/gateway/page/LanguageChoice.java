package dev.waitroom.gateway.page;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which language a page is served in: the visitor's own choice (the {@value #COOKIE} cookie the page's switcher sets),
 * else the best match of {@code Accept-Language}, else English. A malformed cookie or header counts as absent: it
 * never breaks the page (docs/operating/page-language.md).
 */
final class LanguageChoice {

    /** Set by the page's language switcher (assets/common.js): a language tag, nothing personal. */
    static final String COOKIE = "waitroom_lang";

    /** Longer headers are ignored rather than parsed (browsers send a few dozen characters). */
    static final int MAX_HEADER = 512;

    /**
     * Browsers send few distinct Accept-Language values; parsing one costs about 13 µs, a cached answer 1-3 µs
     * (docs/operating/page-language.md).
     */
    static final int CACHED_HEADERS = 1024;

    private static final Pattern TAG = Pattern.compile("[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8}){0,7}");

    private final Map<Locale, MessageBundles.Bundle> byLocale;

    private final List<Locale> locales;

    private final Map<String, MessageBundles.Bundle> byTag;

    private final MessageBundles.Bundle fallback;

    private final Cache<String, MessageBundles.Bundle> byHeader =
            Caffeine.newBuilder().maximumSize(CACHED_HEADERS).build();

    LanguageChoice(MessageBundles bundles) {
        this.byLocale = bundles.all().stream()
                .collect(Collectors.toUnmodifiableMap(MessageBundles.Bundle::locale, Function.identity()));
        this.locales = bundles.all().stream().map(MessageBundles.Bundle::locale).toList();
        this.byTag = bundles.all().stream()
                .collect(Collectors.toUnmodifiableMap(b -> b.tag().toLowerCase(Locale.ROOT), Function.identity()));
        this.fallback = bundles.english();
    }

    MessageBundles.Bundle choose(String cookie, String acceptLanguage) {
        if (cookie != null && TAG.matcher(cookie).matches()) {
            MessageBundles.Bundle exact = byTag.get(cookie.toLowerCase(Locale.ROOT));
            MessageBundles.Bundle chosen = exact != null ? exact : lookup(cookie);
            if (chosen != null) {
                return chosen;
            }
        }
        if (acceptLanguage == null || acceptLanguage.isBlank() || acceptLanguage.length() > MAX_HEADER) {
            return fallback;
        }
        return byHeader.get(acceptLanguage, header -> {
            MessageBundles.Bundle chosen = lookup(header);
            return chosen != null ? chosen : fallback;
        });
    }

    private MessageBundles.Bundle lookup(String ranges) {
        try {
            Locale best = Locale.lookup(Locale.LanguageRange.parse(ranges), locales);
            return best == null ? null : byLocale.get(best);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }
}
