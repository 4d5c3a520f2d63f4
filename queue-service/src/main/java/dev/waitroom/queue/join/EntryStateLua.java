package dev.waitroom.queue.join;

import dev.waitroom.queue.redis.LuaConstants;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link EntryState} as the scripts see it, generated from the enum and prepended when a script is loaded: the
 * scripts name states ({@code WAITING}, {@code OFFERED}, ...), never spell their stored letters.
 */
public final class EntryStateLua {

    /** {@code local WAITING, OFFERED, ... = 'W', 'O', ...}: each state's stored letter. */
    public static final String STATES = states();

    /** {@code local COUNTER}: state letter -> the field of the event's counters that counts entries in that state. */
    public static final String COUNTERS = counters();

    /** {@code local NEXT}: state letter -> set of the letters it may move to ({@link EntryState#next()}). */
    public static final String NEXT = next();

    private EntryStateLua() {}

    public static String letter(EntryState state) {
        return String.valueOf(state.letter());
    }

    private static String states() {
        Map<String, String> letters = new LinkedHashMap<>();
        for (EntryState s : EntryState.values()) {
            letters.put(s.name(), letter(s));
        }
        return LuaConstants.locals(letters);
    }

    private static String counters() {
        Map<String, String> fields = new LinkedHashMap<>();
        for (EntryState s : EntryState.values()) {
            fields.put(letter(s), LuaConstants.quoted(s.name().toLowerCase()));
        }
        return LuaConstants.local("COUNTER", LuaConstants.table(fields));
    }

    private static String next() {
        Map<String, String> next = new LinkedHashMap<>();
        for (EntryState s : EntryState.values()) {
            next.put(
                    letter(s),
                    LuaConstants.set(
                            s.next().stream().map(EntryStateLua::letter).toList()));
        }
        return LuaConstants.local("NEXT", LuaConstants.table(next));
    }
}
