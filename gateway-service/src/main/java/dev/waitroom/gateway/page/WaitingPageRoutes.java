package dev.waitroom.gateway.page;

import dev.waitroom.contract.EventId;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
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
 * The same bytes for every visitor and event (the page reads the event id from its URL), so they
 * are cacheable by browsers and shared caches and never set cookies.
 */
@Configuration(proxyBeanMethods = false)
class WaitingPageRoutes {

    static final CacheControl PAGE_CACHE =
            CacheControl.maxAge(Duration.ofSeconds(60)).cachePublic();

    static final CacheControl ASSET_CACHE =
            CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic();

    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    @Bean
    RouterFunction<ServerResponse> waitingPages() {
        StaticPage waiting = StaticPage.load("waiting-room/waiting.html");
        StaticPage shop = StaticPage.load("waiting-room/shop.html");
        return RouterFunctions.route()
                .GET("/events/{eventId}", request -> serve(request, waiting))
                .GET("/events/{eventId}/shop-ui", request -> serve(request, shop))
                .build()
                .and(RouterFunctions.resources(
                        "/assets/**", new ClassPathResource("waiting-room/assets/"), (resource, headers) -> {
                            headers.setCacheControl(ASSET_CACHE);
                            securityHeaders(headers);
                        }));
    }

    private static Mono<ServerResponse> serve(ServerRequest request, StaticPage page) {
        if (!EventId.isValid(request.pathVariable("eventId"))) {
            return Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND));
        }
        return request.checkNotModified(page.etag())
                .switchIfEmpty(Mono.defer(() -> ServerResponse.ok()
                        .contentType(MediaType.TEXT_HTML)
                        .cacheControl(PAGE_CACHE)
                        .eTag(page.etag())
                        .headers(WaitingPageRoutes::securityHeaders)
                        .bodyValue(page.bytes())));
    }

    static void securityHeaders(HttpHeaders headers) {
        headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "no-referrer");
    }

    /** A page read once at start, with a strong ETag of its content. */
    record StaticPage(byte[] bytes, String etag) {

        static StaticPage load(String path) {
            try (InputStream in = new ClassPathResource(path).getInputStream()) {
                byte[] bytes = in.readAllBytes();
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
                return new StaticPage(bytes, "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"");
            } catch (IOException ex) {
                throw new UncheckedIOException("page " + path + " missing from the jar", ex);
            } catch (NoSuchAlgorithmException ex) {
                throw new IllegalStateException(ex);
            }
        }
    }
}
