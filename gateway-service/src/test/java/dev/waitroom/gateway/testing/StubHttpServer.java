package dev.waitroom.gateway.testing;

import com.sun.net.httpserver.HttpExchange;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.testsupport.LoopbackHttpServer;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.testsupport.StubHttpAnswers;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Predicate;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small real HTTP server standing in for one upstream service. It records every request it
 * receives (so tests can see exactly what the gateway forwarded) and refuses any request without
 * the internal credential where the real service does.
 */
public abstract class StubHttpServer {

    protected static final JsonMapper JSON = JsonMapper.builder().build();

    private final LoopbackHttpServer server;

    private final String internalToken;

    private final ConcurrentLinkedDeque<RecordedRequest> received = new ConcurrentLinkedDeque<>();

    protected StubHttpServer(String internalToken) {
        this.internalToken = internalToken;
        this.server = LoopbackHttpServer.start(this::handleExchange, 8);
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

    /** The answer of a stub route. */
    protected record Reply(int status, Object body, Map<String, String> headers) {

        static Reply json(int status, Object body) {
            return new Reply(status, body, Map.of());
        }
    }

    /** The answer, or null to close the connection without one. */
    protected abstract Reply handle(RecordedRequest request);

    /** Whether this route, as the real service guards it, needs the internal credential: by default every one. */
    protected boolean needsInternalCredential(RecordedRequest request) {
        return true;
    }

    private void handleExchange(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, List<String>> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), List.copyOf(v)));
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            RecordedRequest request = new RecordedRequest(
                    exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), headers, body);
            received.add(request);
            Reply reply;
            if (needsInternalCredential(request)
                    && !internalToken.equals(request.header(Headers.INTERNAL).orElse(null))) {
                reply = problem(ProblemType.INTERNAL_CREDENTIAL_REQUIRED);
            } else {
                try {
                    reply = handle(request);
                } catch (RuntimeException ex) {
                    reply = Reply.json(500, Map.of("title", ex.toString(), "status", 500));
                }
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

    /** A problem+json answer of the contract's catalogue, as the real services write it. */
    protected static Reply problem(ProblemType problem) {
        return Reply.json(
                problem.status(),
                Map.of("type", problem.type().toString(), "title", problem.title(), "status", problem.status()));
    }

    protected static String[] segments(String path) {
        return path.substring(1).split("/");
    }
}
