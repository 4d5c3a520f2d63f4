package dev.waitroom.gateway.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.tokens.HmacKey;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What the gateway accepts as an identity provider's settings, and the account ids it makes from them. */
class AccountsPropertiesTests {

    static final String ISSUER = "https://id.example.org/realms/shop";

    static final String KEY = AccountsTests.randomKey();

    static final List<String> ASYMMETRIC = List.of("RS256", "ES256");

    /** queue-service's Visitor account pattern. */
    static final Pattern QUEUE_ACCOUNT = Pattern.compile("[A-Za-z0-9._@:+-]{1,64}");

    static AccountsProperties of(String issuer, String audience, String jwks, String key, List<String> algorithms) {
        return new AccountsProperties(
                issuer,
                audience,
                jwks,
                "",
                "",
                key,
                algorithms,
                Duration.ofSeconds(30),
                Duration.ofSeconds(2),
                Duration.ofSeconds(30));
    }

    @Test
    void emptySettingsMeanNoProvider() {
        AccountsProperties off = of("", "", "", "", ASYMMETRIC);
        assertThat(off.enabled()).isFalse();
        assertThat(off.jwksUrl()).isNull();
        assertThat(off.signInUrl()).isNull();
    }

    @Test
    void anIssuerNeedsAnAudienceAndAPseudonymKey() {
        assertThatThrownBy(() -> of(ISSUER, "", "", KEY, ASYMMETRIC)).hasMessageContaining("audience");
        assertThatThrownBy(() -> of(ISSUER, "shop", "", "", ASYMMETRIC))
                .hasMessageContaining("WAITROOM_ACCOUNTS_PSEUDONYMKEY");
        assertThatThrownBy(() -> of(ISSUER, "shop", "", "c2hvcnQ=", ASYMMETRIC))
                .hasMessageContaining("pseudonym-key")
                .hasMessageNotContaining("c2hvcnQ=");
        assertThat(of(ISSUER, "shop", "", KEY, ASYMMETRIC).enabled()).isTrue();
    }

    @Test
    void onlyAsymmetricAlgorithmsAreAccepted() {
        for (String alg : List.of("none", "NONE", "HS256", "HS512")) {
            assertThatThrownBy(() -> of(ISSUER, "shop", "", KEY, List.of("RS256", alg)))
                    .as(alg)
                    .hasMessageContaining("asymmetric");
        }
    }

    @Test
    void theIssuerAndTheJwksAreAbsoluteHttpUrls() {
        assertThatThrownBy(() -> of("realms/shop", "shop", "", KEY, ASYMMETRIC)).hasMessageContaining("issuer");
        assertThatThrownBy(() -> of(ISSUER, "shop", "file:///etc/jwks.json", KEY, ASYMMETRIC))
                .hasMessageContaining("jwks-uri");
        assertThat(of(ISSUER, "shop", ISSUER + "/protocol/openid-connect/certs", KEY, ASYMMETRIC)
                        .jwksUrl())
                .hasToString(ISSUER + "/protocol/openid-connect/certs");
    }

    @Test
    void theKeyNeverAppearsInToString() {
        assertThat(of(ISSUER, "shop", "", KEY, ASYMMETRIC).toString())
                .doesNotContain(KEY)
                .contains("***");
    }

    @Test
    void pseudonymsAreStablePerIssuerAndSubjectAndFitTheQueuesAccountPattern() {
        AccountPseudonyms pseudonyms = new AccountPseudonyms(HmacKey.fromBase64(KEY));
        AccountPseudonyms otherGateway = new AccountPseudonyms(HmacKey.fromBase64(KEY));
        AccountPseudonyms otherKey = new AccountPseudonyms(HmacKey.fromBase64(AccountsTests.randomKey()));

        String id = pseudonyms.of(ISSUER, "f81d4fae-7dec-11d0-a765-00a0c91e6bf6");

        assertThat(id).matches("p1\\.[A-Za-z0-9_-]{43}").matches(QUEUE_ACCOUNT);
        assertThat(otherGateway.of(ISSUER, "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"))
                .isEqualTo(id);
        assertThat(pseudonyms.of(ISSUER, "someone-else")).isNotEqualTo(id);
        assertThat(pseudonyms.of("https://other.example/realms/shop", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"))
                .isNotEqualTo(id);
        assertThat(otherKey.of(ISSUER, "f81d4fae-7dec-11d0-a765-00a0c91e6bf6")).isNotEqualTo(id);
        // issuer and subject cannot be shifted into each other
        assertThat(pseudonyms.of("https://a.example/x", "yz")).isNotEqualTo(pseudonyms.of("https://a.example/xy", "z"));
    }
}
