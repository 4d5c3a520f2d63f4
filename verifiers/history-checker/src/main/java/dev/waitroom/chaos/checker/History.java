package dev.waitroom.chaos.checker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A chaos run's history as the workload wrote it: one JSON object a line (docs/operating/chaos.md#history). Read
 * here by field name only, so the checker shares no type with the code that wrote it.
 *
 * @param operations every client operation ({@code "type":"op"}), in the order they completed
 * @param samples the ledger's live grants, sampled every 100 ms ({@code "type":"sample"})
 * @param faults the nemesis's faults with the moment each was healed ({@code "type":"nemesis"})
 * @param events each sale the workload created ({@code "type":"event"}) with its ceiling
 * @param seed the run's seed ({@code "type":"run"})
 */
public record History(List<Op> operations, List<Sample> samples, List<Fault> faults, List<Sale> events, long seed) {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** A client operation: who, what, when it was invoked and completed, and its outcome. */
    public record Op(
            long id,
            String process,
            String region,
            String event,
            String f,
            long invokedAt,
            long completedAt,
            Outcome outcome,
            int status,
            String problem,
            JsonNode value) {

        String text(String field) {
            JsonNode n = value == null ? null : value.get(field);
            return n == null || n.isNull() ? null : n.asString();
        }

        /** One line for a counter-example: the operation as the history has it. */
        String describe() {
            return "#" + id + " " + process + (region.isEmpty() ? "" : "@" + region) + " " + f + " " + event + " ["
                    + invokedAt + ".." + completedAt + "] " + outcome.name().toLowerCase(java.util.Locale.ROOT)
                    + (status > 0 ? " " + status : "") + (problem == null ? "" : " " + problem)
                    + (value == null || value.isEmpty() ? "" : " " + value);
        }
    }

    /** ok: acknowledged; refused: a problem answer; unknown: timed out or the connection was lost. */
    public enum Outcome {
        OK,
        REFUSED,
        UNKNOWN
    }

    public record Sample(String event, long at, long live, long ceiling) {}

    public record Fault(String fault, String target, long at, long healedAt) {}

    public record Sale(String event, long ceiling, long createdAt) {}

    public static History read(Path file) throws IOException {
        List<Op> ops = new ArrayList<>();
        List<Sample> samples = new ArrayList<>();
        List<Fault> faults = new ArrayList<>();
        List<Sale> events = new ArrayList<>();
        long seed = 0;
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n = JSON.readTree(line);
            switch (n.path("type").asString()) {
                case "op" ->
                    ops.add(new Op(
                            n.path("id").asLong(),
                            n.path("process").asString(),
                            n.path("region").asString(""),
                            n.path("event").asString(),
                            n.path("f").asString(),
                            n.path("invokedAt").asLong(),
                            n.path("completedAt").asLong(),
                            Outcome.valueOf(n.path("outcome").asString().toUpperCase(java.util.Locale.ROOT)),
                            n.path("status").asInt(0),
                            n.hasNonNull("problem") ? n.get("problem").asString() : null,
                            n.get("value")));
                case "sample" ->
                    samples.add(new Sample(
                            n.path("event").asString(),
                            n.path("at").asLong(),
                            n.path("live").asLong(),
                            n.path("ceiling").asLong()));
                case "nemesis" ->
                    faults.add(new Fault(
                            n.path("fault").asString(),
                            n.path("target").asString(),
                            n.path("at").asLong(),
                            n.path("healedAt").asLong()));
                case "event" ->
                    events.add(new Sale(
                            n.path("event").asString(),
                            n.path("ceiling").asLong(),
                            n.path("createdAt").asLong()));
                case "run" -> seed = n.path("seed").asLong();
                default -> {
                    // a line of a kind this checker does not know is not evidence of anything
                }
            }
        }
        return new History(List.copyOf(ops), List.copyOf(samples), List.copyOf(faults), List.copyOf(events), seed);
    }
}
