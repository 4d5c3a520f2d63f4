package dev.waitroom.gateway.page;

import dev.waitroom.contract.EventId;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Mono;

/**
 * The gateway's own static pages: the waiting page at {@code GET /events/{eventId}}, the minimal
 * shop page at {@code GET /events/{eventId}/shop-ui} and their assets under {@code /assets/**}.
 * Each page is rendered once per language at start (its texts and message bundle inlined,
 * docs/page-language.md); a request only chooses the language ({@link LanguageChoice}), so the
 * same bytes go to every visitor of a language and every event (the page reads the event id from
 * its URL). They are cacheable by browsers and shared caches ({@code Vary: Accept-Language,
 * Cookie}) and never set cookies.
 */
@Configuration(proxyBeanMethods = false)
class WaitingPageRoutes {

    static final CacheControl PAGE_CACHE =
            CacheControl.maxAge(Duration.ofSeconds(60)).cachePublic();

    static final CacheControl ASSET_CACHE =
            CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic();

    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    /** The page differs by the language cookie and by Accept-Language, nothing else. */
    static final String VARY = "Accept-Language, Cookie";

    @Bean
    RouterFunction<ServerResponse> waitingPages() {
        MessageBundles bundles = MessageBundles.load(MessageBundles.LOCATION);
        LanguageChoice languages = new LanguageChoice(bundles);
        Map<String, StaticPage> waiting = StaticPage.perLanguage("waiting-room/waiting.html", bundles);
        Map<String, StaticPage> shop = StaticPage.perLanguage("waiting-room/shop.html", bundles);
        return RouterFunctions.route()
                .GET("/events/{eventId}", request -> serve(request, waiting, languages))
                .GET("/events/{eventId}/shop-ui", request -> serve(request, shop, languages))
                .build()
                .and(RouterFunctions.resources(
                        "/assets/**", new ClassPathResource("waiting-room/assets/"), (resource, headers) -> {
                            headers.setCacheControl(ASSET_CACHE);
                            securityHeaders(headers);
                        }));
    }

    private static Mono<ServerResponse> serve(
            ServerRequest request, Map<String, StaticPage> pages, LanguageChoice languages) {
        if (!EventId.isValid(request.pathVariable("eventId"))) {
            return Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND));
        }
        HttpCookie cookie = request.cookies().getFirst(LanguageChoice.COOKIE);
        MessageBundles.Bundle language = languages.choose(
                cookie == null ? null : cookie.getValue(), request.headers().firstHeader(HttpHeaders.ACCEPT_LANGUAGE));
        StaticPage page = pages.get(language.tag());
        if (request.headers().header(HttpHeaders.IF_NONE_MATCH).stream()
                .flatMap(value -> Stream.of(value.split(",")))
                .map(String::trim)
                .anyMatch(tag -> tag.equals(page.etag()) || tag.equals("W/" + page.etag()) || tag.equals("*"))) {
            return ServerResponse.status(HttpStatus.NOT_MODIFIED)
                    .cacheControl(PAGE_CACHE)
                    .eTag(page.etag())
                    .varyBy(VARY)
                    .build();
        }
        return ServerResponse.ok()
                .contentType(MediaType.TEXT_HTML)
                .cacheControl(PAGE_CACHE)
                .eTag(page.etag())
                .varyBy(VARY)
                .header(HttpHeaders.CONTENT_LANGUAGE, language.tag())
                .headers(WaitingPageRoutes::securityHeaders)
                .bodyValue(page.bytes());
    }

    static void securityHeaders(HttpHeaders headers) {
        headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "no-referrer");
    }

    /** A page rendered once at start for one language, with a strong ETag of its content. */
    record StaticPage(byte[] bytes, String etag) {

        static Map<String, StaticPage> perLanguage(String path, MessageBundles bundles) {
            PageTemplate template = PageTemplate.load(path);
            Map<String, StaticPage> pages = new LinkedHashMap<>();
            for (MessageBundles.Bundle language : bundles.all()) {
                pages.put(language.tag(), of(template.render(language, bundles)));
            }
            return Map.copyOf(pages);
        }

        static StaticPage of(byte[] bytes) {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
                return new StaticPage(bytes, "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"");
            } catch (NoSuchAlgorithmException ex) {
                throw new IllegalStateException(ex);
            }
        }
    }
}
