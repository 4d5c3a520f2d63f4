package dev.waitroom.gateway.protect;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.routes.ProtectedRoutes;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /events/{eventId}/return-target?path=...}: whether the waiting page may send an admitted buyer to {@code
 * path} (docs/integration/gateway-in-front.md#the-buyers-way-in). Only a local path (and query) that the same event
 * protects is accepted, answered as {@code {"target": ...}}; anything else (another host, a scheme, {@code //}, a
 * backslash, an encoded slash, dot or backslash, a control character, another event's path) is a 400 {@code bad-path}
 * problem and the page sends the buyer to the event's shop page instead. Decided here, not by the page, so no link to
 * the waiting page can make it an open redirect.
 */
@Configuration(proxyBeanMethods = false)
class ReturnTargets {

    static final int MAX_LENGTH = 2000;

    /** What a path segment may hold: RFC 3986 pchar, with percent-escapes checked apart. */
    private static final Pattern PATH = Pattern.compile("(/[A-Za-z0-9._~!$&'()*+,;=:@%-]*)+");

    private static final Pattern QUERY = Pattern.compile("[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*");

    /** A percent-escape of a control character (CR, LF, NUL, DEL, ...), anywhere in the target. */
    private static final Pattern ENCODED_CONTROL = Pattern.compile("%([01][0-9A-Fa-f]|7[Ff])");

    @Bean
    RouterFunction<ServerResponse> returnTargetRoute(ProtectedRoutes routes) {
        return RouterFunctions.route()
                .GET("/events/{eventId}/return-target", request -> answer(request, routes))
                .build();
    }

    private static Mono<ServerResponse> answer(ServerRequest request, ProtectedRoutes routes) {
        EventId eventId = EventId.parse(request.pathVariable("eventId")).orElse(null);
        String target = request.queryParam("path").orElse(null);
        if (eventId == null || !accepted(routes, eventId, target)) {
            ProblemType problem = ProblemType.BAD_PATH;
            return ServerResponse.status(problem.status())
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .cacheControl(CacheControl.noStore())
                    .bodyValue(Map.of(
                            "type", problem.type().toString(),
                            "title", problem.title(),
                            "status", problem.status(),
                            "detail", "Not a page of this event to return to.",
                            "instance", request.path()));
        }
        return ServerResponse.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .cacheControl(CacheControl.noStore())
                .bodyValue(Map.of("target", target));
    }

    /** {@code target} is a local path (and query) that {@code eventId} protects. */
    static boolean accepted(ProtectedRoutes routes, EventId eventId, String target) {
        if (target == null || target.isEmpty() || target.length() > MAX_LENGTH) {
            return false;
        }
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q + 1);
        if (!PATH.matcher(path).matches() || !QUERY.matcher(query).matches() || path.contains("//")) {
            return false;
        }
        if (ENCODED_CONTROL.matcher(target).find()) {
            return false;
        }
        String lower = path.toLowerCase(Locale.ROOT);
        // an encoded slash, backslash, dot or percent could mean another path to the origin than to the route table
        if (lower.contains("%2f") || lower.contains("%5c") || lower.contains("%2e") || lower.contains("%25")) {
            return false;
        }
        for (String segment : path.split("/")) {
            if (segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return routes.table().protects(eventId, path);
    }
}
