package dev.waitroom.contract.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.MalformedValueException;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperatorCredentialsTests {

    private static final Operator ALICE = Operator.of("alice", "admin");

    private static final Operator VIEWER = Operator.of("vic@example.org", "VIEWER");

    @Test
    void eachOperatorIsKnownByTheirOwnTokenAndNoOtherValue() {
        String alice = OperatorTokens.generate();
        String vic = OperatorTokens.generate();
        OperatorCredentials credentials = OperatorCredentials.builder()
                .tokenHash(ALICE, OperatorTokens.hash(alice))
                .tokenHash(VIEWER, OperatorTokens.hash(vic))
                .build();

        assertThat(credentials.authenticate(alice)).contains(ALICE);
        assertThat(credentials.fromAuthorization("bearer  " + vic + " ")).contains(VIEWER);
        assertThat(credentials.authenticate(OperatorTokens.generate())).isEmpty();
        assertThat(credentials.authenticate(alice.substring(1))).isEmpty();
        assertThat(credentials.authenticate(OperatorTokens.hash(alice)))
                .as("the stored hash is not a credential")
                .isEmpty();
        assertThat(credentials.authenticate("")).isEmpty();
        assertThat(credentials.fromAuthorization(null)).isEmpty();
        assertThat(credentials.fromAuthorization("Basic " + alice)).isEmpty();
        assertThat(credentials.names()).containsExactly("alice", "vic@example.org");
    }

    @Test
    void aCurrentAndAPreviousTokenBothNameTheOperatorAndAThirdIsRefused() {
        String current = OperatorTokens.generate();
        String previous = OperatorTokens.generate();
        OperatorCredentials credentials = OperatorCredentials.builder()
                .tokenHash(ALICE, OperatorTokens.hash(current))
                .tokenHash(ALICE, OperatorTokens.hash(previous))
                .build();

        assertThat(credentials.authenticate(current)).contains(ALICE);
        assertThat(credentials.authenticate(previous)).contains(ALICE);
        assertThat(credentials.authenticate(OperatorTokens.generate())).isEmpty();
    }

    @Test
    void aPlainTokenIsKeptOnlyAsItsDigest() {
        String token = OperatorTokens.generate();
        OperatorCredentials credentials =
                OperatorCredentials.builder().token(ALICE, token).build();
        assertThat(credentials.authenticate(token)).contains(ALICE);
        assertThat(credentials.toString()).doesNotContain(token);
    }

    @Test
    void configurationMistakesAreRefused() {
        String token = OperatorTokens.generate();
        assertThatThrownBy(() -> OperatorCredentials.builder()
                        .tokenHash(ALICE, OperatorTokens.hash(token))
                        .tokenHash(Operator.of("bob", "admin"), OperatorTokens.hash(token))
                        .build())
                .isInstanceOf(MalformedValueException.class)
                .hasMessageContaining("share a credential");
        assertThatThrownBy(() -> OperatorCredentials.builder()
                        .tokenHash(ALICE, OperatorTokens.hash(token))
                        .tokenHash(Operator.of("alice", "viewer"), OperatorTokens.hash(OperatorTokens.generate()))
                        .build())
                .hasMessageContaining("different roles");
        assertThatThrownBy(() -> OperatorCredentials.builder().tokenHash(ALICE, token))
                .as("a plain token where a hash belongs")
                .hasMessageContaining("sha256:")
                .hasMessageNotContaining(token);
        assertThatThrownBy(() -> OperatorCredentials.builder().tokenHash(ALICE, "sha256:AAAA"))
                .isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> OperatorTokens.hash("short-and-guessable")).hasMessageContaining("at least 32");
        assertThatThrownBy(() -> Operator.of("ops\nFAKE audit line", "admin"))
                .isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> Operator.of("x".repeat(65), "admin")).isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> Operator.of("alice", "root")).hasMessageContaining("admin or viewer");
    }

    @Test
    void aConfigurationNamesItsOperatorsAndThePlainOpsToken() {
        String ops = OperatorTokens.generate();
        String opsPrevious = OperatorTokens.generate();
        String alice = OperatorTokens.generate();
        String alicePrevious = OperatorTokens.generate();
        OperatorCredentials credentials = OperatorCredentials.fromConfiguration(
                ops,
                opsPrevious,
                List.of(new ConfiguredOperator(
                        "alice", "admin", OperatorTokens.hash(alice), OperatorTokens.hash(alicePrevious))));

        assertThat(credentials.authenticate(ops)).contains(OperatorCredentials.OPS_TOKEN_OPERATOR);
        assertThat(credentials.authenticate(opsPrevious)).contains(OperatorCredentials.OPS_TOKEN_OPERATOR);
        assertThat(credentials.authenticate(alicePrevious)).contains(ALICE);
        assertThat(OperatorCredentials.fromConfiguration(null, " ", List.of()).isEmpty())
                .isTrue();
        assertThatThrownBy(() -> OperatorCredentials.fromConfiguration(
                        null,
                        null,
                        List.of(
                                new ConfiguredOperator("alice", "admin", OperatorTokens.hash(alice), null),
                                new ConfiguredOperator("bob", "admin", null, null))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("operators[1]")
                .hasMessageContaining("token-hash is required");
        assertThat(new ConfiguredOperator("alice", "admin", OperatorTokens.hash(alice), null).toString())
                .isEqualTo("alice (admin)");
    }

    @Test
    void aViewerReadsAndNothingElse() {
        assertThat(VIEWER.permits("GET")).isTrue();
        assertThat(VIEWER.permits("HEAD")).isTrue();
        for (String method : new String[] {"POST", "PUT", "PATCH", "DELETE", "OPTIONS", "get"}) {
            assertThat(VIEWER.permits(method)).as(method).isFalse();
            assertThat(ALICE.permits(method)).as(method).isTrue();
        }
    }

    @Test
    void theHashIsStableAndFromTheTokensBytes() {
        String token = "a".repeat(43);
        assertThat(OperatorTokens.hash(token))
                .isEqualTo(OperatorTokens.hash(" " + token + "\n"))
                .isEqualTo("sha256:ZtNPunH49FD35FWYhT5Tv8I7vRKQJ8uxMaL0_9eHjNA")
                .startsWith(OperatorTokens.SCHEME);
    }
}
