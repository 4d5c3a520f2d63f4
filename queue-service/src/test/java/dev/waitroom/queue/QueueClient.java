package dev.waitroom.queue;

import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Talks to the running service over real HTTP, as the gateway and the coordinator do. */
public final class QueueClient {

    public static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final AtomicLong EVENTS = new AtomicLong();
    private static final QueueTicketCodec TICKETS = TestSecrets.ticketCodec();

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String base;

    public QueueClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    /** A fresh event id: tests never share events, and never flush the shared Redis. */
    public static String newEventId(String prefix) {
        return prefix + "-" + EVENTS.incrementAndGet() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    public record Reply(int status, Map<String, List<String>> headers, String body) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }

        public QueueTicket ticket() {
            return TICKETS.decode(header(Headers.TICKET));
        }

        public String receipt() {
            return json().get("receipt").asString();
        }

        /** Asserts a problem+json answer of this status and type; returns its body. */
        public JsonNode assertProblem(int expectedStatus, String type) {
            org.assertj.core.api.Assertions.assertThat(status).as(body).isEqualTo(expectedStatus);
            org.assertj.core.api.Assertions.assertThat(header("Content-Type")).startsWith("application/problem+json");
            org.assertj.core.api.Assertions.assertThat(json().get("type").asString())
                    .isEqualTo("https://waitroom.dev/problems/" + type);
            return json();
        }
    }

    public Reply send(String method, String path, String body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        headers.forEach(b::header);
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        b.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Reply internal(String method, String path, String body) {
        return send(method, path, body, Map.of(Headers.INTERNAL, TestSecrets.credentialFor(method, path)));
    }

    public Reply asVisitor(String method, String path, String visitor, String body) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put(Headers.INTERNAL, TestSecrets.credentialFor(method, path));
        h.put(Headers.VISITOR, visitor);
        return send(method, path, body, h);
    }

    public Reply putEvent(String eventId, String phase, String extraJson) {
        String body = "{\"phase\":\"" + phase + "\",\"mode\":\"QUEUEING\",\"saleGeneration\":1,"
                + "\"admissionRatePerSecond\":10,\"offerTtlSeconds\":60" + (extraJson == null ? "" : "," + extraJson)
                + "}";
        return internal("PUT", "/internal/events/" + eventId, body);
    }

    /** A fresh event ({@link #newEventId}) pushed in {@code phase} as {@link #putEvent} pushes it. */
    public String newEvent(String prefix, String phase) {
        String eventId = newEventId(prefix);
        putEvent(eventId, phase, null);
        return eventId;
    }

    public Reply join(String eventId, String visitor) {
        return asVisitor("POST", "/events/" + eventId + "/queue", visitor, null);
    }

    public Reply status(String eventId, String visitor) {
        return asVisitor("GET", "/events/" + eventId + "/queue/status", visitor, null);
    }

    public Reply leave(String eventId, String visitor) {
        return asVisitor("DELETE", "/events/" + eventId + "/queue", visitor, null);
    }

    public JsonNode counts(String eventId) {
        return internal("GET", "/internal/events/" + eventId + "/counts", null).json();
    }

    public List<JsonNode> candidates(String eventId, int limit) {
        JsonNode entries = internal("GET", "/internal/events/" + eventId + "/candidates?limit=" + limit, null)
                .json()
                .get("entries");
        List<JsonNode> out = new ArrayList<>();
        entries.forEach(out::add);
        return out;
    }

    /** Offers one entry under a grant until 2030; answers its result. */
    public JsonNode offer(String eventId, String entryId, String grantId) {
        return offer(eventId, entryId, grantId, "2030-01-01T00:00:00Z");
    }

    /** Offers one entry under a grant until {@code expiresAt} (ISO-8601); answers its result. */
    public JsonNode offer(String eventId, String entryId, String grantId, String expiresAt) {
        return internal(
                        "POST",
                        "/internal/events/" + eventId + "/offers",
                        "{\"offers\":[{\"entryId\":\"" + entryId + "\",\"grantId\":\"" + grantId + "\",\"expiresAt\":\""
                                + expiresAt + "\"}]}")
                .json()
                .get("results")
                .get(0);
    }

    public Reply transition(String eventId, String entryId, String to, String grantId) {
        return internal(
                "POST",
                "/internal/events/" + eventId + "/entries/" + entryId + "/transition",
                "{\"to\":\"" + to + "\",\"grantId\":\"" + grantId + "\"}");
    }

    public Reply draw(String eventId, String seedHex) {
        return internal("POST", "/internal/events/" + eventId + "/draw", "{\"seed\":\"" + seedHex + "\"}");
    }
}
