package dev.waitroom.queue.redis;

import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Lua source that names values the Java code owns (stored letters, counter fields, allowed transitions), generated
 * when a script is loaded and passed to {@link QueueScripts#load} as a prelude, so no script spells them itself.
 */
public final class LuaConstants {

    private LuaConstants() {}

    /** {@code local A, B = 'a', 'b'}: one string local per name, in the map's order. */
    public static String locals(Map<String, String> values) {
        return "local " + String.join(", ", values.keySet()) + " = "
                + values.values().stream().map(LuaConstants::quoted).collect(Collectors.joining(", ")) + "\n";
    }

    /** {@code local name = expression}. */
    public static String local(String name, String expression) {
        return "local " + name + " = " + expression + "\n";
    }

    /** {@code {['k'] = v, ...}}: a table from strings to Lua expressions. */
    public static String table(Map<String, String> expressions) {
        return expressions.entrySet().stream()
                .map(e -> "[" + quoted(e.getKey()) + "] = " + e.getValue())
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /** {@code {['k'] = true, ...}}: a set of strings. */
    public static String set(Collection<String> members) {
        return members.stream().map(m -> "[" + quoted(m) + "] = true").collect(Collectors.joining(", ", "{", "}"));
    }

    /** A Lua string literal; the values are letters and names, never anything that needs escaping. */
    public static String quoted(String value) {
        if (!value.matches("[A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("not a plain Lua name: " + value);
        }
        return "'" + value + "'";
    }
}
