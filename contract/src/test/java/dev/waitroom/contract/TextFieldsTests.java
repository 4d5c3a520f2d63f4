package dev.waitroom.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TextFieldsTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Summer Tour 2027",
                "Café Müller – Nachmittag",
                "東京ドーム",
                "fans 🎸🎤 welcome",
                "quotes \" ' and <tags> & ; are text",
                "x"
            })
    void acceptsOrdinaryTextOfAnyScript(String value) {
        assertThat(TextFields.required("name", value, 200)).isEqualTo(value);
        assertThat(TextFields.isSafe(value, 200)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "nul\u0000inside",
                "bell\u0007",
                "line\nbreak",
                "tab\there",
                "carriage\rreturn",
                "escape\u001b[31mred",
                "del\u007f",
                "c1\u0085next-line",
                "c1\u009bcsi",
                "lone high \ud800 surrogate",
                "lone low \udc00 surrogate",
                "ends in a high surrogate \ud83c",
                "line\u2028separator",
                "paragraph\u2029separator",
                "right-to-left \u202e override",
                "isolate \u2066x\u2069"
            })
    void refusesControlCharactersUnpairedSurrogatesAndBidiMarks(String value) {
        assertThat(TextFields.isSafe(value, 200)).isFalse();
        assertThatThrownBy(() -> TextFields.required(ProblemType.INVALID_EVENT_CONFIG, "name", value, 200))
                .isInstanceOfSatisfying(MalformedValueException.class, e -> {
                    assertThat(e.problem()).isEqualTo(ProblemType.INVALID_EVENT_CONFIG);
                    assertThat(e.getMessage()).startsWith("name ").doesNotContain(value);
                });
    }

    @Test
    void countsCharactersNotUtf16Units() {
        String guitars = "🎸".repeat(10);
        assertThat(guitars.length()).isEqualTo(20);
        assertThat(TextFields.required("name", guitars, 10)).isEqualTo(guitars);
        assertThatThrownBy(() -> TextFields.required("name", guitars + "x", 10))
                .isInstanceOf(MalformedValueException.class)
                .hasMessage("name is at most 10 characters");
    }

    @Test
    void refusesOverLongValuesAndAnswersAMalformedRequestByDefault() {
        assertThat(TextFields.required("reason", "r".repeat(500), 500)).hasSize(500);
        assertThatThrownBy(() -> TextFields.required("reason", "r".repeat(501), 500))
                .isInstanceOfSatisfying(
                        MalformedValueException.class,
                        e -> assertThat(e.problem()).isEqualTo(ProblemType.MALFORMED_REQUEST));
        assertThat(TextFields.isSafe("r".repeat(501), 500)).isFalse();
    }

    @Test
    void stripsSurroundingWhiteSpaceAndTellsMissingFromBlank() {
        assertThat(TextFields.required("name", "  Concert  ", 200)).isEqualTo("Concert");
        assertThatThrownBy(() -> TextFields.required("name", "Concert\n", 200))
                .isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> TextFields.required("name", "\u0000Concert", 200))
                .isInstanceOf(MalformedValueException.class);
        assertThat(TextFields.optional("reason", null, 10)).isNull();
        assertThat(TextFields.optional("reason", "   ", 10)).isNull();
        assertThat(TextFields.optional("reason", " why ", 10)).isEqualTo("why");
        assertThatThrownBy(() -> TextFields.required("name", " ", 200))
                .isInstanceOf(MalformedValueException.class)
                .hasMessage("name is required");
        assertThatThrownBy(() -> TextFields.optional("reason", "a\u0000", 10))
                .isInstanceOf(MalformedValueException.class);
        assertThat(TextFields.isSafe(null, 10)).isFalse();
    }
}
