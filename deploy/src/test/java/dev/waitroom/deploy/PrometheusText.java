package dev.waitroom.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Prometheus's text exposition format (what {@code /actuator/prometheus} answers): one series a line,
 * {@code name{label="value",...} value [timestamp]}, {@code # HELP}/{@code # TYPE} comments skipped, label values
 * unescaped ({@code \\}, {@code \"}, {@code \n}). Prometheus adds its target labels when it scrapes; the caller passes
 * them ({@code job}, {@code instance}) as {@code targetLabels}. As Prometheus does by default ({@code honor_labels:
 * false}), the target's label wins and a differing one of the series is kept as {@code exported_<label>}.
 */
final class PrometheusText {

    private PrometheusText() {}

    /** One scraped series and its sample value. */
    record Series(String name, Map<String, String> labels, double value) {

        @Override
        public String toString() {
            return this.name + this.labels;
        }
    }

    static List<Series> parse(String body, Map<String, String> targetLabels) {
        List<Series> series = new ArrayList<>();
        for (String line : body.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            series.add(parseLine(l, targetLabels));
        }
        return series;
    }

    private static Series parseLine(String line, Map<String, String> targetLabels) {
        int i = 0;
        int n = line.length();
        while (i < n && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        String name = line.substring(0, i);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no metric name: " + line);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && line.charAt(i) == '{') {
            i++;
            while (true) {
                while (i < n && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
                    i++;
                }
                if (i >= n) {
                    throw new IllegalArgumentException("unclosed labels: " + line);
                }
                if (line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                if (eq < 0 || eq + 1 >= n || line.charAt(eq + 1) != '"') {
                    throw new IllegalArgumentException("malformed label at " + i + ": " + line);
                }
                String label = line.substring(i, eq).strip();
                StringBuilder value = new StringBuilder();
                int j = eq + 2;
                while (true) {
                    if (j >= n) {
                        throw new IllegalArgumentException("unclosed label value: " + line);
                    }
                    char c = line.charAt(j);
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\' && j + 1 < n) {
                        char e = line.charAt(j + 1);
                        value.append(e == 'n' ? '\n' : e);
                        j += 2;
                        continue;
                    }
                    value.append(c);
                    j++;
                }
                labels.put(label, value.toString());
                i = j + 1;
            }
        }
        String rest = line.substring(i).strip();
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("no value: " + line);
        }
        String sample = rest.split("\\s+")[0];
        double value = switch (sample) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(sample);
        };
        targetLabels.forEach((label, target) -> {
            String own = labels.put(label, target);
            if (own != null && !own.equals(target)) {
                labels.put("exported_" + label, own);
            }
        });
        return new Series(name, labels, value);
    }
}
