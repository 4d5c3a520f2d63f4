package dev.waitroom.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ContractTests {

    @ParameterizedTest
    @ValueSource(
            strings = {"a", "Z9", "summer-tour_2027", "0123456789012345678901234567890123456789012345678901234567890123"
            })
    void acceptsEventIdsOfTheOneRule(String value) {
        assertThat(EventId.of(value).value()).isEqualTo(value);
        assertThat(EventId.parse(value)).contains(new EventId(value));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "-lead",
                "_lead",
                "with.dot",
                "brace{",
                "tag}",
                "colon:x",
                "space x",
                "slash/x",
                "é",
                "01234567890123456789012345678901234567890123456789012345678901234"
            })
    void rejectsEventIdsThatCouldEscapeAKeyOrPath(String value) {
        assertThat(EventId.parse(value)).isEmpty();
        assertThatThrownBy(() -> EventId.of(value))
                .isInstanceOfSatisfying(
                        MalformedValueException.class,
                        e -> assertThat(e.problem()).isEqualTo(ProblemType.INVALID_EVENT_ID));
    }

    @Test
    void theWrittenOutRuleIsTheRegularExpressionOfTheContract() {
        java.util.regex.Pattern rule = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
        java.util.Random random = new java.util.Random(29);
        String idChars = "aqzAQZ059_-";
        String any = idChars + ".:{}/ +\u00e9\u0000";
        for (int n = 0; n < 200_000; n++) {
            // half of them of id characters only (lengths around the 64 limit, a leading '_' or '-'), half of any
            String alphabet = n % 2 == 0 ? idChars : any;
            StringBuilder id = new StringBuilder();
            int length = random.nextInt(68);
            for (int i = 0; i < length; i++) {
                id.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = id.toString();
            assertThat(EventId.isValid(value))
                    .as("'%s'", value)
                    .isEqualTo(rule.matcher(value).matches());
        }
    }

    @Test
    void rejectsAMissingEventId() {
        assertThat(EventId.parse(null)).isEmpty();
        assertThatThrownBy(() -> EventId.of(null)).isInstanceOf(MalformedValueException.class);
    }

    @Test
    void readsEnumNamesStrictlyAndPoliciesWithTheirDefault() {
        assertThat(EventPhase.parse("OPEN")).isEqualTo(EventPhase.OPEN);
        assertThat(OperatingMode.parse("SOLD_OUT")).isEqualTo(OperatingMode.SOLD_OUT);
        assertThat(ExpiredOfferPolicy.parse(null)).isEqualTo(ExpiredOfferPolicy.REQUEUE_ONCE);
        assertThat(IdentityScope.parse(null)).isEqualTo(IdentityScope.BROWSER);
        assertThat(PresaleOrdering.parse("FIFO")).isEqualTo(PresaleOrdering.FIFO);
        for (String bad : new String[] {"open", "OPEN ", "", "ANYTHING"}) {
            assertThatThrownBy(() -> EventPhase.parse(bad))
                    .isInstanceOfSatisfying(
                            MalformedValueException.class,
                            e -> assertThat(e.problem()).isEqualTo(ProblemType.MALFORMED_REQUEST));
        }
        assertThatThrownBy(() -> EventPhase.parse(null)).isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> OperatingMode.parse(null)).isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> IdentityScope.parse("browser")).isInstanceOf(MalformedValueException.class);
    }

    @Test
    void phasesNeverGoBack() {
        for (EventPhase from : EventPhase.values()) {
            for (EventPhase to : from.next()) {
                assertThat(to.ordinal()).isGreaterThan(from.ordinal());
                assertThat(from.canMoveTo(to)).isTrue();
            }
            assertThat(from.canMoveTo(from)).isFalse();
        }
        assertThat(OperatingMode.SOLD_OUT.canMoveTo(OperatingMode.QUEUEING)).isTrue();
        assertThat(OperatingMode.SOLD_OUT.canMoveTo(OperatingMode.BYPASS)).isFalse();
    }

    @Test
    void everyProblemTypeHasItsOwnStableUri() {
        assertThat(new HashSet<>(Arrays.stream(ProblemType.values())
                        .map(ProblemType::slug)
                        .toList()))
                .hasSize(ProblemType.values().length);
        for (ProblemType p : ProblemType.values()) {
            assertThat(p.type().toString()).isEqualTo("https://waitroom.dev/problems/" + p.slug());
            assertThat(p.slug()).matches("[a-z]+(-[a-z]+)*");
            assertThat(p.status()).isBetween(400, 599);
            assertThat(p.title()).isNotBlank();
        }
        assertThat(ProblemType.forStatus(413)).contains(ProblemType.BODY_TOO_LARGE);
        assertThat(ProblemType.forStatus(418)).isEmpty();
    }

    @Test
    void sharedRedisKeysKeepAnEventInOneSlot() {
        EventId event = EventId.of("e1");
        assertThat(RedisKeys.session(event, "s")).isEqualTo("wr:{e1}:session:s");
        assertThat(RedisKeys.endedSession(event, "s")).isEqualTo("wr:{e1}:ended:s");
        assertThat(RedisKeys.eventPrefix(event)).isEqualTo("wr:{e1}:");
    }
}
