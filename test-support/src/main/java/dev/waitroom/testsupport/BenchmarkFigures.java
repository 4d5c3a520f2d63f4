package dev.waitroom.testsupport;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The figures of one benchmark, printed as one line that a reader and a script can both take apart
 * (docs/BENCHMARKS.md):
 *
 * <pre>
 * BENCH name=queue.join requests=20000 threads=32 seconds=6.28 rps=3183.12 p50_ms=9.10 p99_ms=31.10 max_ms=80.20
 * </pre>
 *
 * Keys and the name are single words ({@code [A-Za-z0-9_.:-]}); a value's spaces become {@code _}; decimals have two
 * places. Figures are printed, never asserted on: a benchmark asserts only what it did (every request answered, the
 * counts it expects), not how fast.
 */
public final class BenchmarkFigures {

    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_.:-]+");

    private final String name;
    private final Map<String, Object> figures = new LinkedHashMap<>();

    private BenchmarkFigures(String name) {
        this.name = word(name, "name");
    }

    /** No figures yet: {@link #add} them, then {@link #print()}. */
    public static BenchmarkFigures named(String name) {
        return new BenchmarkFigures(name);
    }

    /** Adds (or replaces) one figure; keeps the order of first addition. */
    public BenchmarkFigures add(String key, Object value) {
        figures.put(word(key, "key"), value);
        return this;
    }

    public String name() {
        return name;
    }

    /** The figure under {@code key}, or {@code null}. */
    public Object get(String key) {
        return figures.get(key);
    }

    /** {@code BENCH name=<name> key=value ...}, without a line break. */
    public String line() {
        StringBuilder line = new StringBuilder("BENCH name=").append(name);
        figures.forEach((key, value) -> line.append(' ').append(key).append('=').append(text(value)));
        return line.toString();
    }

    /** Prints {@link #line()} to standard output; answers this, for a caller that still wants a figure. */
    public BenchmarkFigures print() {
        System.out.println(line());
        return this;
    }

    @Override
    public String toString() {
        return line();
    }

    private static String text(Object value) {
        if (value instanceof Double || value instanceof Float) {
            return String.format(Locale.ROOT, "%.2f", ((Number) value).doubleValue());
        }
        String text = String.valueOf(value).strip().replaceAll("\\s+", "_");
        return text.isEmpty() ? "-" : text;
    }

    private static String word(String text, String what) {
        if (text == null || !WORD.matcher(text).matches()) {
            throw new IllegalArgumentException("a benchmark " + what + " is one word of [A-Za-z0-9_.:-]: " + text);
        }
        return text;
    }
}
