package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BodyFuzzerTests {

    static final Map<String, Object> TEMPLATE =
            Map.of("name", "Concert", "seats", 10, "tags", List.of("a"), "nested", Map.of("ok", true), "rate", 1.5);

    @AfterEach
    void clearSeed() {
        System.clearProperty(BodyFuzzer.SEED_PROPERTY);
    }

    @Test
    void theSameSeedMakesTheSameCasesAndEachRouteItsOwn() {
        System.setProperty(BodyFuzzer.SEED_PROPERTY, "42");
        BodyFuzzer first = BodyFuzzer.seeded("test", 16 * 1024);
        BodyFuzzer again = BodyFuzzer.seeded("test", 16 * 1024);
        assertThat(first.seed()).isEqualTo(42);
        List<BodyFuzzer.Case> a = first.cases("POST /x", TEMPLATE);
        List<BodyFuzzer.Case> b = again.cases("POST /x", TEMPLATE);
        assertThat(a).hasSameSizeAs(b);
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).name()).isEqualTo(b.get(i).name());
            assertThat(a.get(i).body()).isEqualTo(b.get(i).body());
        }
        assertThat(first.cases("POST /y", TEMPLATE).stream().map(c -> new String(c.body(), StandardCharsets.UTF_8)))
                .isNotEqualTo(a.stream()
                        .map(c -> new String(c.body(), StandardCharsets.UTF_8))
                        .toList());
    }

    @Test
    void coversEveryFieldNestedOnesTooAndEveryWholeBodyFault() {
        BodyFuzzer fuzzer = BodyFuzzer.seeded("test", 8 * 1024);
        List<String> names = fuzzer.cases("PUT /z", TEMPLATE).stream()
                .map(BodyFuzzer.Case::name)
                .toList();
        assertThat(names)
                .contains(
                        "name: NUL",
                        "name: unpaired surrogate",
                        "name: long string",
                        "name: invalid UTF-8",
                        "seats: huge number 1e400",
                        "seats: number of 2000 digits",
                        "tags[0]: NUL",
                        "nested.ok: a word for a boolean",
                        "rate: NaN",
                        "empty body",
                        "JSON null",
                        "object nested 1000 deep",
                        "invalid UTF-8 in a value",
                        "no content type",
                        "over the body limit");
        assertThat(names).allMatch(n -> !n.isBlank());
    }

    @Test
    void writesHostileCharactersEscapedAndInvalidBytesRaw() {
        BodyFuzzer fuzzer = BodyFuzzer.seeded("test", 8 * 1024);
        BodyFuzzer.Case nul = fuzzer.cases("PUT /z", Map.of("name", "ab")).stream()
                .filter(c -> c.name().equals("name: NUL"))
                .findFirst()
                .orElseThrow();
        assertThat(new String(nul.body(), StandardCharsets.UTF_8)).contains("\\u0000");
        BodyFuzzer.Case utf8 = fuzzer.cases("PUT /z", Map.of("name", "ab")).stream()
                .filter(c -> c.name().equals("name: invalid UTF-8"))
                .findFirst()
                .orElseThrow();
        assertThatThrownBy(() -> StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(utf8.body())))
                .isInstanceOf(CharacterCodingException.class);
    }

    @Test
    void findsFiveHundredsAndAnswersThatAreNoProblem() {
        BodyFuzzer fuzzer = BodyFuzzer.seeded("test", 8 * 1024);
        String problem = "{\"type\":\"https://waitroom.dev/problems/malformed-request\",\"status\":400}";
        assertThat(fuzzer.fault(new BodyFuzzer.Answer(400, "application/problem+json", problem)))
                .isEmpty();
        assertThat(fuzzer.fault(new BodyFuzzer.Answer(200, "application/json", "{}")))
                .isEmpty();
        assertThat(fuzzer.fault(new BodyFuzzer.Answer(503, "application/problem+json", problem)))
                .isPresent();
        assertThat(fuzzer.fault(new BodyFuzzer.Answer(400, "text/html", "<html>")))
                .isPresent();
        assertThat(fuzzer.fault(new BodyFuzzer.Answer(400, "application/problem+json", "{\"status\":400}")))
                .isPresent();
    }
}
