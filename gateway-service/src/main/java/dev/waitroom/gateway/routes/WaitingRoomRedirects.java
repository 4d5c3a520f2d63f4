package dev.waitroom.gateway.routes;

import dev.waitroom.contract.EventId;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The buyer's way in (docs/integration/gateway-in-front.md#the-buyers-way-in): a browser that opens a protected page
 * without a valid admission is sent to the event's waiting page with the page it asked for as {@code return}; any
 * other client gets the problem answer with a {@code Link} to the waiting page ({@code rel="waiting-room"}). The
 * waiting page sends the buyer back only to a target {@link ReturnTargets} accepts.
 */
public final class WaitingRoomRedirects {

    /** The link relation of the waiting page on a refused protected request. */
    public static final String REL = "waiting-room";

    /** The header a forward-auth refusal names the waiting page (with return) in, for the origin's proxy. */
    public static final String WAITING_ROOM_HEADER = "Waitroom-Waiting-Room";

    private WaitingRoomRedirects() {}

    /** A top-level page load: GET or HEAD asking for HTML. */
    public static boolean isNavigation(ServerHttpRequest request) {
        HttpMethod method = request.getMethod();
        if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
            return false;
        }
        List<String> accept = request.getHeaders().get(HttpHeaders.ACCEPT);
        return accept != null && accept.stream().anyMatch(a -> a.contains(MediaType.TEXT_HTML_VALUE));
    }

    /** The waiting page of the event; with {@code target} (path and query) as the page to return to. */
    public static String waitingPage(EventId eventId, String target) {
        String page = "/events/" + eventId.value();
        return target == null ? page : page + "?return=" + URLEncoder.encode(target, StandardCharsets.UTF_8);
    }

    /** The raw path and query the request asked for. */
    public static String target(ServerHttpRequest request) {
        URI uri = request.getURI();
        return uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery();
    }

    /** 303 to the waiting page with the request's own path and query as its return target. */
    public static Mono<Void> redirect(ServerWebExchange exchange, EventId eventId) {
        exchange.getResponse().setStatusCode(HttpStatus.SEE_OTHER);
        HttpHeaders headers = exchange.getResponse().getHeaders();
        String location = waitingPage(eventId, target(exchange.getRequest()));
        headers.set(HttpHeaders.LOCATION, location);
        headers.setCacheControl("no-store");
        // a body of known length: a 303 with neither length nor body leaves an HTTP/1.1 client waiting for one
        byte[] body = ("<!doctype html><title>Waiting room</title><a href=\"" + location
                        + "\">Continue to the waiting room</a>\n")
                .getBytes(StandardCharsets.UTF_8);
        headers.setContentType(MediaType.TEXT_HTML);
        headers.setContentLength(body.length);
        if (exchange.getRequest().getMethod() == HttpMethod.HEAD) {
            return exchange.getResponse().setComplete();
        }
        return exchange.getResponse()
                .writeWith(Mono.just(exchange.getResponse().bufferFactory().wrap(body)));
    }

    /** The {@code Link} to the waiting page on a refused non-navigation request. */
    public static void link(ServerWebExchange exchange, EventId eventId) {
        exchange.getResponse()
                .getHeaders()
                .add(HttpHeaders.LINK, "<" + waitingPage(eventId, null) + ">; rel=\"" + REL + "\"");
    }

    /**
     * A forward-auth refusal: the link, and for a navigation the waiting page with return in {@link
     * #WAITING_ROOM_HEADER}, which nginx's {@code auth_request_set} reads for its own 303.
     */
    public static void forForwardAuth(ServerWebExchange exchange, EventId eventId) {
        link(exchange, eventId);
        if (isNavigation(exchange.getRequest())) {
            exchange.getResponse()
                    .getHeaders()
                    .set(WAITING_ROOM_HEADER, waitingPage(eventId, target(exchange.getRequest())));
        }
    }
}
