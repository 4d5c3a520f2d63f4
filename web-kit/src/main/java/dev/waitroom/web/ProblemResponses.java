package dev.waitroom.web;

import dev.waitroom.contract.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * RFC 9457 problem documents for a {@link ProblemType} of the catalogue: {@code type}, {@code title} and {@code status}
 * from the catalogue, a {@code detail} and the request's path as {@code instance}. Handlers return
 * {@link #entity entities}; filters, which run before Spring MVC's message converters, {@link #write write} the same
 * document themselves. Every problem is {@code Cache-Control: no-store}.
 */
public final class ProblemResponses {

    /** {@code type}, {@code title} and {@code status} of each problem, as JSON, built once. */
    private static final String[] HEAD = new String[ProblemType.values().length];

    static {
        for (ProblemType type : ProblemType.values()) {
            StringBuilder json = new StringBuilder(128).append("{\"type\":");
            quote(json, type.type().toString());
            json.append(",\"title\":");
            quote(json, type.title());
            HEAD[type.ordinal()] =
                    json.append(",\"status\":").append(type.status()).toString();
        }
    }

    private ProblemResponses() {}

    /** The problem document, with the request's path as {@code instance} when there is a request. */
    public static ProblemDetail detail(ProblemType type, String detail, HttpServletRequest request) {
        return detail(type, detail, Map.of(), request);
    }

    /** The problem document with extension members ({@code properties}). */
    public static ProblemDetail detail(
            ProblemType type, String detail, Map<String, ?> properties, HttpServletRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(type.status()), detail);
        problem.setType(type.type());
        problem.setTitle(type.title());
        URI instance = instanceOf(request);
        if (instance != null) {
            problem.setInstance(instance);
        }
        properties.forEach(problem::setProperty);
        return problem;
    }

    /** The response for a handler: the problem's status, {@code application/problem+json}, {@code no-store}. */
    public static ResponseEntity<ProblemDetail> entity(ProblemType type, String detail, HttpServletRequest request) {
        return builder(type).body(detail(type, detail, request));
    }

    /** A response builder with the problem's status, content type and caching set, for adding headers (Retry-After). */
    public static ResponseEntity.BodyBuilder builder(ProblemType type) {
        return ResponseEntity.status(type.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.CACHE_CONTROL, "no-store");
    }

    /**
     * Writes the problem from a servlet filter. Headers set before (such as {@code WWW-Authenticate} or the request
     * id) are kept; anything already buffered is discarded. With a {@code null} request there is no {@code instance}.
     */
    public static void write(HttpServletResponse response, ProblemType type, String detail, HttpServletRequest request)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        StringBuilder json = new StringBuilder(256).append(HEAD[type.ordinal()]);
        if (detail != null) {
            quote(json.append(",\"detail\":"), detail);
        }
        URI instance = instanceOf(request);
        if (instance != null) {
            quote(json.append(",\"instance\":"), instance.toString());
        }
        byte[] body = json.append('}').toString().getBytes(StandardCharsets.UTF_8);
        response.resetBuffer();
        response.setStatus(type.status());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }

    /** The request's path (without the query, which may carry data) as a URI reference, or {@code null}. */
    private static URI instanceOf(HttpServletRequest request) {
        if (request == null) {
            return null;
        }
        try {
            return URI.create(request.getRequestURI());
        } catch (IllegalArgumentException notAUri) {
            return null;
        }
    }

    private static void quote(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
