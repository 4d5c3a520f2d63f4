package dev.waitroom.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every PromQL expression the operators' tools evaluate, with where it is used: each Grafana dashboard's panel targets
 * (rows' nested panels too) and Prometheus template-variable queries under
 * {@code deploy/observability/grafana/dashboards}, and each rule of {@code deploy/observability/alerts.yml}.
 */
final class ObservabilityQueries {

    static final Path OBSERVABILITY = TestStacks.ROOT.resolve("deploy/observability");

    /** {@code label_values(metric{...}, label)}: the selector is the first argument; {@code label_values(label)} has none. */
    private static final Pattern LABEL_VALUES =
            Pattern.compile("(?s)^\\s*label_values\\((.*),\\s*[A-Za-z_]\\w*\\s*\\)\\s*$");

    private static final Pattern QUERY_RESULT = Pattern.compile("(?s)^\\s*query_result\\((.*)\\)\\s*$");

    private ObservabilityQueries() {}

    /**
     * One expression and where it is used.
     *
     * @param where    a reader's name for the place: {@code panel 'Joins per second' (waitroom.json)}, {@code alert
     *     WaitroomRedisMemoryHigh}
     * @param expr     the expression as written (Grafana variables included)
     * @param grafana  whether Grafana sends it (its variables are then replaced, {@link PromQl#grafana})
     */
    record Use(String where, String expr, boolean grafana) {

        /** The expression as Prometheus receives it. */
        String sent() {
            return this.grafana ? PromQl.grafana(this.expr) : this.expr;
        }
    }

    static List<Use> all() throws IOException {
        List<Use> uses = new ArrayList<>(dashboards());
        uses.addAll(alertRules());
        return uses;
    }

    static List<Use> dashboards() throws IOException {
        List<Use> uses = new ArrayList<>();
        JsonMapper json = JsonMapper.builder().build();
        try (Stream<Path> files = Files.list(OBSERVABILITY.resolve("grafana/dashboards"))) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                JsonNode dashboard = json.readTree(file.toFile());
                String name = file.getFileName().toString();
                panels(dashboard.path("panels"), name, uses);
                for (JsonNode variable : dashboard.path("templating").path("list")) {
                    if (!variable.path("type").asString().equals("query")) {
                        continue;
                    }
                    JsonNode query = variable.path("query");
                    String text = query.isObject() ? query.path("query").asString() : query.asString();
                    String where = "variable $" + variable.path("name").asString() + " (" + name + ")";
                    Matcher values = LABEL_VALUES.matcher(text);
                    Matcher result = QUERY_RESULT.matcher(text);
                    if (values.matches()) {
                        uses.add(new Use(where, values.group(1), true));
                    } else if (result.matches()) {
                        uses.add(new Use(where, result.group(1), true));
                    } else if (!text.matches("(?s)^\\s*label_values\\(\\s*[A-Za-z_]\\w*\\s*\\)\\s*$")) {
                        throw new IllegalStateException(where + ": a query this check cannot read: " + text);
                    }
                }
            }
        }
        return uses;
    }

    private static void panels(JsonNode panels, String file, List<Use> into) {
        for (JsonNode panel : panels) {
            String where = "panel '" + panel.path("title").asString() + "' (" + file + ")";
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asString();
                if (!expr.isBlank()) {
                    into.add(new Use(where, expr, true));
                }
            }
            panels(panel.path("panels"), file, into);
        }
    }

    @SuppressWarnings("unchecked")
    static List<Use> alertRules() throws IOException {
        List<Use> uses = new ArrayList<>();
        Map<String, Object> rules =
                new Yaml(new LoaderOptions()).load(Files.readString(OBSERVABILITY.resolve("alerts.yml")));
        for (Map<String, Object> group : (List<Map<String, Object>>) rules.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                String name = rule.containsKey("alert") ? "alert " + rule.get("alert") : "record " + rule.get("record");
                uses.add(new Use(name, String.valueOf(rule.get("expr")), false));
            }
        }
        return uses;
    }
}
