package dev.waitroom.coordinator.support;

import dev.waitroom.contract.Headers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Real HTTP against the running coordinator (JDK client), JSON through Jackson. */
public final class Http {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;

    private final Map<String, String> defaults = new LinkedHashMap<>();

    public Http(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    private BiFunction<String, String, String> internalCredential;

    public Http header(String name, String value) {
        this.defaults.put(name, value);
        return this;
    }

    /**
     * Sends {@code X-Waitroom-Internal} chosen per request (by method and path), as the service that makes the call in
     * a deployment would send its own; a header given to {@link #send} wins.
     */
    public Http internalCredential(BiFunction<String, String, String> byMethodAndPath) {
        this.internalCredential = byMethodAndPath;
        return this;
    }

    public Response send(String method, String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        this.defaults.forEach(request::header);
        if (this.internalCredential != null) {
            request.setHeader(Headers.INTERNAL, this.internalCredential.apply(method, path));
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.setHeader(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<String> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().map(), response.body());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    public Response post(String path, String body, String... headers) {
        return send("POST", path, body, headers);
    }

    public Response get(String path, String... headers) {
        return send("GET", path, null, headers);
    }

    public static String json(Object value) {
        return JSON.writeValueAsString(value);
    }

    public record Response(int status, Map<String, java.util.List<String>> headers, String body) {

        public JsonNode json() {
            return JSON.readTree(this.body);
        }

        public String header(String name) {
            return this.headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> String.join(", ", e.getValue()))
                    .findFirst()
                    .orElse(null);
        }

        public String contentType() {
            return header("Content-Type");
        }

        public String problemType() {
            return json().path("type").asString();
        }
    }
}
