package dev.waitroom.testsupport;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Predicate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stand-in service on a {@link LoopbackHttpServer} that records every request it receives, in arrival order, so a
 * test can read exactly what reached it, and answers each through {@link #answer}: a {@link StubReply} written as
 * JSON (problem+json from 400 on), 500 for a route that throws, or no answer at all (the connection closed) for null.
 */
public abstract class RecordingHttpServer implements AutoCloseable {

    protected static final JsonMapper JSON = JsonMapper.builder().build();

    private final ConcurrentLinkedDeque<RecordedRequest> received = new ConcurrentLinkedDeque<>();

    private final LoopbackHttpServer server;

    /** Starts answering on {@code threads} threads at once; no request arrives before {@link #uri()} is handed out. */
    protected RecordingHttpServer(int threads) {
        this.server = LoopbackHttpServer.start(this::exchange, threads);
    }

    /** The answer to {@code request} ({@code rawQuery} its query string, or null), or null to close without one. */
    protected abstract StubReply answer(RecordedRequest request, String rawQuery);

    /** Records a request the server did not receive as such (one of a batch, seen as if sent alone). */
    protected final void record(RecordedRequest request) {
        received.add(request);
    }

    public URI uri() {
        return server.uri();
    }

    public List<RecordedRequest> received(Predicate<RecordedRequest> filter) {
        return received.stream().filter(filter).toList();
    }

    public Optional<RecordedRequest> lastReceived(String path) {
        List<RecordedRequest> all = new ArrayList<>(received);
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).path().equals(path)) {
                return Optional.of(all.get(i));
            }
        }
        return Optional.empty();
    }

    public long countReceived(String path) {
        return received.stream().filter(r -> r.path().equals(path)).count();
    }

    @Override
    public void close() {
        server.close();
    }

    private void exchange(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, List<String>> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            URI uri = exchange.getRequestURI();
            RecordedRequest request = new RecordedRequest(exchange.getRequestMethod(), uri.getRawPath(), headers, body);
            received.add(request);
            StubReply reply;
            try {
                reply = answer(request, uri.getRawQuery());
            } catch (RuntimeException ex) {
                reply = StubReply.json(500, Map.of("title", ex.toString(), "status", 500));
            }
            if (reply == null) {
                return; // closed without an answer, as a service that stops mid-request
            }
            reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            StubHttpAnswers.json(
                    exchange,
                    reply.status(),
                    reply.body() == null ? new byte[0] : JSON.writeValueAsBytes(reply.body()));
        }
    }
}
