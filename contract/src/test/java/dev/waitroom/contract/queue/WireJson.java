package dev.waitroom.contract.queue;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Holds records against JSON samples with a Jackson 3 mapper of default settings. */
public final class WireJson {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private WireJson() {}

    /**
     * Reads {@code json} as {@code expected}'s type, and writes {@code expected} as the same JSON: the same field
     * names, nulls and values (a number by its value: {@code 120} and {@code 120.0} are one JSON number).
     */
    public static <T> void roundTrips(String json, T expected) {
        assertThat(JSON.readValue(json, expected.getClass())).isEqualTo(expected);
        JsonNode written = JSON.readTree(JSON.writeValueAsString(expected));
        assertThat(written.equals(WireJson::sameValue, JSON.readTree(json)))
                .as("%s written as %s", json, written)
                .isTrue();
    }

    /** {@code singleQuoted} with its single quotes made double, so samples read without escapes. */
    public static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    private static int sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    }
}
