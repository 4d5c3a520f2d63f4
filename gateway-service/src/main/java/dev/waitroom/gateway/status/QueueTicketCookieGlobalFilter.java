package dev.waitroom.gateway.status;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.config.EdgeProperties;
import java.util.List;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Moves the queue-service's {@code X-Waitroom-Ticket} response header into the {@code wr_qt}
 * cookie scoped to the event's path, and clears that cookie when the visitor leaves the queue.
 * The header never reaches the browser.
 */
@Component
class QueueTicketCookieGlobalFilter implements GlobalFilter, Ordered {

    static final String COOKIE = "wr_qt";

    private final EdgeProperties edge;

    QueueTicketCookieGlobalFilter(EdgeProperties edge) {
        this.edge = edge;
    }

    @Override
    public int getOrder() {
        return FilterOrder.QUEUE_TICKET_COOKIE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            List<String> tickets = response.getHeaders().get(Headers.TICKET);
            response.getHeaders().remove(Headers.TICKET);
            EventId eventId = eventOf(exchange.getRequest().getPath().value());
            if (eventId == null) {
                return Mono.empty();
            }
            HttpStatusCode status = response.getStatusCode();
            String path = exchange.getRequest().getPath().value();
            HttpMethod method = exchange.getRequest().getMethod();
            // a redeemed access code moves the place to a lane, whose position the edge does not know: the ticket goes,
            // so the next poll reaches the queue-service (docs/operating/lanes-and-access-codes.md)
            boolean left = ((HttpMethod.DELETE.equals(method) && path.endsWith("/queue"))
                            || (HttpMethod.POST.equals(method) && path.endsWith("/code")))
                    && status != null
                    && status.is2xxSuccessful();
            if (left) {
                response.addCookie(cookie(eventId, "").maxAge(0).build());
            } else if (tickets != null && !tickets.isEmpty() && !tickets.get(0).isBlank()) {
                response.addCookie(cookie(eventId, tickets.get(0).trim()).build());
            }
            return Mono.empty();
        });
        return chain.filter(exchange);
    }

    private ResponseCookie.ResponseCookieBuilder cookie(EventId eventId, String value) {
        return ResponseCookie.from(COOKIE, value)
                .path("/events/" + eventId.value())
                .httpOnly(true)
                .sameSite("Lax")
                .secure(edge.secureCookies());
    }

    static EventId eventOf(String path) {
        if (!path.startsWith("/events/")) {
            return null;
        }
        int start = "/events/".length();
        int end = path.indexOf('/', start);
        String id = end < 0 ? path.substring(start) : path.substring(start, end);
        return EventId.isValid(id) ? new EventId(id) : null;
    }
}
