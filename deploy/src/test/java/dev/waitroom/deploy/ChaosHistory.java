package dev.waitroom.deploy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chaos run's history file, as the history checker reads it (docs/operating/chaos.md#history): one JSON object a
 * line, written as each operation completes, flushed at once so a run cut short still leaves what happened.
 */
final class ChaosHistory implements AutoCloseable {

    static final ObjectMapper JSON = JsonMapper.builder().build();

    private final BufferedWriter out;
    private final AtomicLong ids = new AtomicLong();

    ChaosHistory(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        this.out = Files.newBufferedWriter(file);
    }

    /** What the client saw of one request: its answer, or null when it got none (timed out, connection lost). */
    record Completed(HttpResponse<String> response, String error) {

        boolean answered() {
            return response != null;
        }

        int status() {
            return response == null ? 0 : response.statusCode();
        }

        JsonNode body() {
            if (response == null || response.body() == null || response.body().isBlank()) {
                return JSON.createObjectNode();
            }
            try {
                return JSON.readTree(response.body());
            } catch (RuntimeException notJson) {
                return JSON.createObjectNode();
            }
        }
    }

    /**
     * Writes one operation: {@code ok} for a 2xx, {@code refused} (with the problem type) for any other answer,
     * {@code unknown} for none. {@code value} holds what the operation read or created (receipt, session, order...).
     */
    void op(
            String process,
            String region,
            String event,
            String f,
            long invokedAt,
            long completedAt,
            Completed c,
            ObjectNode value) {
        ObjectNode n = JSON.createObjectNode();
        n.put("type", "op");
        n.put("id", ids.incrementAndGet());
        n.put("process", process);
        n.put("region", region);
        n.put("event", event);
        n.put("f", f);
        n.put("invokedAt", invokedAt);
        n.put("completedAt", completedAt);
        if (!c.answered()) {
            n.put("outcome", "unknown");
            n.put("error", c.error());
        } else if (c.status() / 100 == 2) {
            n.put("outcome", "ok");
            n.put("status", c.status());
        } else {
            n.put("outcome", "refused");
            n.put("status", c.status());
            JsonNode type = c.body().get("type");
            n.put("problem", type == null ? "http-" + c.status() : type.asString());
        }
        if (value != null && !value.isEmpty()) {
            n.set("value", value);
        }
        write(n);
    }

    void sample(String event, long at, long live, long ceiling) {
        ObjectNode n = JSON.createObjectNode();
        n.put("type", "sample");
        n.put("event", event);
        n.put("at", at);
        n.put("live", live);
        n.put("ceiling", ceiling);
        write(n);
    }

    void fault(String fault, String target, long at, long healedAt) {
        ObjectNode n = JSON.createObjectNode();
        n.put("type", "nemesis");
        n.put("fault", fault);
        n.put("target", target);
        n.put("at", at);
        n.put("healedAt", healedAt);
        write(n);
    }

    void event(String event, long ceiling, long createdAt) {
        ObjectNode n = JSON.createObjectNode();
        n.put("type", "event");
        n.put("event", event);
        n.put("ceiling", ceiling);
        n.put("createdAt", createdAt);
        write(n);
    }

    void run(long seed, String profile) {
        ObjectNode n = JSON.createObjectNode();
        n.put("type", "run");
        n.put("seed", seed);
        n.put("profile", profile);
        write(n);
    }

    private synchronized void write(ObjectNode n) {
        try {
            out.write(JSON.writeValueAsString(n));
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
