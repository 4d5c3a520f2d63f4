package dev.waitroom.gateway.testing;

import com.sun.net.httpserver.HttpExchange;
import dev.waitroom.testsupport.LoopbackHttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * A seller's own site on loopback, which nobody here wrote the protection for: a real HTTP server that answers every
 * request with a small HTML page naming itself and the path and query it received, and records what it received. It
 * asks for no credential of Waitroom's.
 */
public final class ShopOrigin implements AutoCloseable {

    private final String name;

    private final LoopbackHttpServer server;

    private final ConcurrentLinkedDeque<Received> received = new ConcurrentLinkedDeque<>();

    /** A request as the origin saw it: raw path and query, header names lower-cased. */
    public record Received(String method, String path, String query, Map<String, List<String>> headers) {

        public Optional<String> header(String name) {
            List<String> values = headers.get(name.toLowerCase());
            return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
        }
    }

    public ShopOrigin(String name) {
        this.name = name;
        this.server = LoopbackHttpServer.start(this::handle, 4);
    }

    public URI uri() {
        return server.uri();
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    /** The last request with this raw path, if any. */
    public Optional<Received> last(String path) {
        return received.stream().filter(r -> r.path().equals(path)).reduce((a, b) -> b);
    }

    /** What the page says, so a test can tell which origin served it. */
    public String page(String path, String query) {
        return "<!doctype html><title>" + name + "</title><p>" + name + " " + path + (query == null ? "" : "?" + query);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, List<String>> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), List.copyOf(v)));
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
            }
            URI uri = exchange.getRequestURI();
            received.add(new Received(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), headers));
            byte[] body = page(uri.getRawPath(), uri.getRawQuery()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
