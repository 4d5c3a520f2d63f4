package dev.waitroom.gateway.page;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.OperatorCredentials;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.problem.ProblemResponses;
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
 * Each page is rendered once per language (its texts and message bundle inlined,
 * docs/operating/page-language.md): the shop at start, the waiting page per event when its seller's design
 * changes ({@link SellerPages}, docs/operating/the-sellers-page.md); a request only picks the
 * event's page and chooses the language ({@link LanguageChoice}), so the same bytes go to every
 * visitor of a language and event (the page reads the event id from its URL). They are cacheable by browsers and shared caches ({@code Vary: Accept-Language,
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

    /** The preview of a seller's page: an operator's, never stored by a shared cache, never indexed. */
    static final CacheControl PREVIEW_CACHE = CacheControl.noStore();

    @Bean
    RouterFunction<ServerResponse> waitingPages(SellerPages sellerPages, SecretsProperties secrets) {
        MessageBundles bundles = sellerPages.bundles();
        LanguageChoice languages = sellerPages.languages();
        Map<String, StaticPage> shop = StaticPage.perLanguage("waiting-room/shop.html", bundles);
        OperatorCredentials operators = secrets.operatorCredentials();
        return RouterFunctions.route()
                .GET("/events/{eventId}", request -> {
                    SellerPages.EventPage page = sellerPages.pageOf(request.pathVariable("eventId"));
                    return serve(request, page.pages(), page.csp(), languages);
                })
                .GET("/events/{eventId}/shop-ui", request -> serve(request, shop, CONTENT_SECURITY_POLICY, languages))
                .GET("/admin/events/{eventId}/page/preview", request -> preview(request, sellerPages, operators))
                .build()
                .and(RouterFunctions.resources(
                        "/assets/**", new ClassPathResource("waiting-room/assets/"), (resource, headers) -> {
                            headers.setCacheControl(ASSET_CACHE);
                            securityHeaders(headers);
                        }));
    }

    /**
     * The event's page as Redis holds it now, in {@code ?lang=} (else the request's language), without its scripts so
     * it joins nothing, for an operator (the ops credential, as every {@code /admin} route): {@code
     * docs/operating/the-sellers-page.md}.
     */
    private static Mono<ServerResponse> preview(
            ServerRequest request, SellerPages sellerPages, OperatorCredentials operators) {
        if (operators
                .fromAuthorization(request.headers().firstHeader(HttpHeaders.AUTHORIZATION))
                .isEmpty()) {
            request.exchange()
                    .getResponse()
                    .getHeaders()
                    .set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"waitroom-admin\"");
            return ProblemResponses.write(
                            request.exchange(),
                            ProblemType.OPS_CREDENTIAL_REQUIRED,
                            "The ops API needs Authorization: Bearer with an operator's token.")
                    .then(Mono.empty());
        }
        if (!EventId.isValid(request.pathVariable("eventId"))) {
            return Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND));
        }
        EventId id = EventId.of(request.pathVariable("eventId"));
        MessageBundles.Bundle language = sellerPages
                .languages()
                .choose(
                        request.queryParam("lang").orElse(null),
                        request.headers().firstHeader(HttpHeaders.ACCEPT_LANGUAGE));
        return sellerPages
                .current(id)
                .flatMap(page -> ServerResponse.ok()
                        .contentType(MediaType.TEXT_HTML)
                        .cacheControl(PREVIEW_CACHE)
                        .header(HttpHeaders.CONTENT_LANGUAGE, language.tag())
                        .header("X-Robots-Tag", "noindex")
                        .headers(headers -> securityHeaders(headers, page.csp()))
                        .bodyValue(sellerPages.preview(page, language)));
    }

    private static Mono<ServerResponse> serve(
            ServerRequest request, Map<String, StaticPage> pages, String csp, LanguageChoice languages) {
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
                .headers(headers -> securityHeaders(headers, csp))
                .bodyValue(page.bytes());
    }

    static void securityHeaders(HttpHeaders headers) {
        securityHeaders(headers, CONTENT_SECURITY_POLICY);
    }

    /** The page's own CSP: a seller's page adds its colours' style hash and its image hosts. */
    static void securityHeaders(HttpHeaders headers, String csp) {
        headers.set("Content-Security-Policy", csp);
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
