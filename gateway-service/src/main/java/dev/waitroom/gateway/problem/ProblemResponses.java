package dev.waitroom.gateway.problem;

import dev.waitroom.contract.ProblemType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes RFC 9457 problem+json answers, with the type, title and status of the one catalogue every service answers
 * with ({@link ProblemType}). Spring Cloud Gateway's own error paths write empty bodies, so every answer the gateway
 * gives itself goes through here (the MVC services have the web kit's writer; this is its WebFlux counterpart).
 */
public final class ProblemResponses {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A temporary outage is retried after a few seconds (clients add their own jitter). */
    private static final String RETRY_UNAVAILABLE_AFTER_SECONDS = "5";

    private ProblemResponses() {}

    public static Mono<Void> write(ServerWebExchange exchange, ProblemType problem, String detail) {
        return write(exchange, problem, detail, Map.of());
    }

    /**
     * Writes the problem unless the response is already committed.
     * @param extra additional members of the problem object (never personal data)
     */
    public static Mono<Void> write(
            ServerWebExchange exchange, ProblemType problem, String detail, Map<String, Object> extra) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.empty();
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.type().toString());
        body.put("title", problem.title());
        body.put("status", problem.status());
        body.put("detail", detail);
        body.put("instance", exchange.getRequest().getPath().value());
        body.putAll(extra);
        byte[] bytes = JSON.writeValueAsBytes(body);
        response.setStatusCode(HttpStatusCode.valueOf(problem.status()));
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        headers.setContentLength(bytes.length);
        headers.setCacheControl("no-store");
        if (problem.status() == HttpStatus.SERVICE_UNAVAILABLE.value()
                && !headers.containsHeader(HttpHeaders.RETRY_AFTER)) {
            headers.set(HttpHeaders.RETRY_AFTER, RETRY_UNAVAILABLE_AFTER_SECONDS);
        }
        DataBuffer buffer = response.bufferFactory().wrap(bytes);
        return response.writeWith(Mono.just(buffer));
    }
}
