package dev.waitroom.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every key a queue script touches is declared (docs/reference/contracts.md, "Redis keys and topologies"): the key argument of
 * each {@code redis.call} is {@code KEYS[...]}, a {@code K()}/{@code B()} name (checked against KEYS before any key
 * is touched), or a local only ever bound to one of those. No script builds a key from the prefix itself.
 */
class ScriptKeysTests {

    private static final Path SCRIPTS = Path.of("src/main/resources/scripts");
    private static final Pattern CALL = Pattern.compile("redis\\.call\\('([A-Z]+)',\\s*");
    private static final Pattern ASSIGNMENT = Pattern.compile("^\\s*(?:local\\s+)?([A-Za-z_][\\w, ]*?)\\s*=\\s*(.+)$");

    @Test
    void everyRedisCallNamesADeclaredKey() throws IOException {
        List<String> problems = new ArrayList<>();
        int calls = 0;
        for (Path script : scripts()) {
            String source = Files.readString(script);
            Map<String, Boolean> declaredLocals = declaredLocals(source);
            Matcher call = CALL.matcher(source);
            while (call.find()) {
                calls++;
                String key = firstArgument(source, call.end());
                if (!isDeclaredKey(key) && !declaredLocals.getOrDefault(key, false)) {
                    problems.add(SCRIPTS.relativize(script) + ": " + call.group(1) + " on " + key);
                }
            }
        }
        assertThat(calls).as("the scripts were read").isGreaterThan(50);
        assertThat(problems).as("redis.call on a key not declared in KEYS").isEmpty();
    }

    @Test
    void onlyTheDeclaredKeysLibraryJoinsThePrefixToAName() throws IOException {
        for (Path script : scripts()) {
            if (!script.endsWith("declared_keys.lua")) {
                assertThat(Files.readString(script)).as(script.toString()).doesNotContain("P ..");
            }
        }
    }

    private static List<Path> scripts() throws IOException {
        try (Stream<Path> files = Files.walk(SCRIPTS)) {
            return files.filter(f -> f.toString().endsWith(".lua")).sorted().toList();
        }
    }

    private static boolean isDeclaredKey(String expression) {
        return expression.startsWith("KEYS[") || expression.startsWith("K(") || expression.startsWith("B(");
    }

    /** Locals mapped to whether every value ever bound to them is a declared key. */
    private static Map<String, Boolean> declaredLocals(String source) {
        Map<String, Boolean> locals = new HashMap<>();
        for (String line : source.lines().toList()) {
            Matcher m = ASSIGNMENT.matcher(line.replaceAll("--.*$", ""));
            if (!m.matches() || m.group(2).startsWith("=")) {
                continue;
            }
            String[] names = m.group(1).split("\\s*,\\s*");
            List<String> values = splitTopLevel(m.group(2));
            for (int i = 0; i < names.length; i++) {
                boolean declared =
                        i < values.size() && isDeclaredKey(values.get(i).trim());
                locals.merge(names[i].trim(), declared, Boolean::logicalAnd);
            }
        }
        return locals;
    }

    private static String firstArgument(String source, int from) {
        int depth = 0;
        StringBuilder arg = new StringBuilder();
        for (int i = from; i < source.length(); i++) {
            char c = source.charAt(i);
            if (depth == 0 && (c == ',' || c == ')')) {
                break;
            }
            if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
            }
            arg.append(c);
        }
        return arg.toString().trim();
    }

    private static List<String> splitTopLevel(String expressions) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (char c : expressions.toCharArray()) {
            if (c == ',' && depth == 0) {
                out.add(current.toString());
                current.setLength(0);
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            }
            current.append(c);
        }
        out.add(current.toString());
        return out;
    }
}
