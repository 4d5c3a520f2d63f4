package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's and the alert rules' expressions without a stack: each is PromQL Prometheus accepts (promtool checks
 * them as recording rules, Grafana's variables replaced as the default view sends them), each selects something, and a
 * template variable in a label value is matched with {@code =~} (a multi-value or "All" choice is a regular
 * expression). {@link DashboardSelectorsTests} then checks each selector against a running stack.
 */
class DashboardQueriesTests {

    private static final Pattern VARIABLE_IN_EXACT_MATCH =
            Pattern.compile("[!]?=\\s*\"[^\"]*(\\$\\{?[A-Za-z_]|\\[\\[)");

    @Test
    void everyExpressionHasASelectorAndVariablesAreMatchedAsRegularExpressions() throws Exception {
        List<ObservabilityQueries.Use> uses = ObservabilityQueries.all();
        assertThat(uses).as("panels and rules read").hasSizeGreaterThan(20);
        for (ObservabilityQueries.Use use : uses) {
            assertThat(PromQl.selectors(use.sent()))
                    .as(use.where() + ": " + use.expr())
                    .isNotEmpty();
            assertThat(VARIABLE_IN_EXACT_MATCH.matcher(use.expr()).find())
                    .as(use.where() + " matches a template variable with = or != (use =~ or !~): " + use.expr())
                    .isFalse();
        }
    }

    @Test
    void promtoolAcceptsEveryDashboardExpression(@TempDir Path dir) throws Exception {
        Path promtool = dev.waitroom.testsupport.TestTools.require("promtool");
        List<ObservabilityQueries.Use> uses = ObservabilityQueries.dashboards();
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < uses.size(); i++) {
            names.add("dashboard:" + i + " = " + uses.get(i).where());
            rules.append("      - record: dashboard:expr_").append(i).append('\n');
            rules.append("        expr: |\n");
            for (String line : uses.get(i).sent().split("\n")) {
                rules.append("          ").append(line).append('\n');
            }
        }
        Path file = dir.resolve("dashboard-rules.yml");
        Files.writeString(file, rules);
        Process check = new ProcessBuilder(promtool.toString(), "check", "rules", file.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue())
                .as(output + "\n" + String.join("\n", names))
                .isZero();
        assertThat(output).contains("SUCCESS: " + uses.size() + " rules found");
    }
}
