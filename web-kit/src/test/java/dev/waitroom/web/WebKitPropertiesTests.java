package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.ops.OperatorTokens;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.util.unit.DataSize;

/** A service that turns a check on without its secret does not start, and says which variable to set. */
class WebKitPropertiesTests {

    private final WebApplicationContextRunner runner =
            new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(WebKitAutoConfiguration.class));

    private final WebApplicationContextRunner withSecrets = runner.withPropertyValues(KitCredentials.properties())
            .withPropertyValues("waitroom.security.ops-token=" + TestHttp.OPS_TOKEN);

    @Test
    void theDefaultsProtectEverythingButHealthAndMetricsAndTheOpsApi() {
        withSecrets.run(context -> {
            WebKitProperties.Web web = context.getBean(WebKitProperties.class).web();
            assertThat(web.internalCredential().paths()).containsExactly("/**");
            assertThat(web.internalCredential().publicPaths())
                    .containsExactly("/actuator/health/**", "/actuator/prometheus");
            assertThat(web.opsCredential().paths()).containsExactly("/admin/**");
            assertThat(web.maxBodySize()).isEqualTo(DataSize.ofKilobytes(16));
            assertThat(context.getBeansOfType(FilterRegistrationBean.class).values())
                    .allMatch(FilterRegistrationBean::isEnabled)
                    .hasSize(4);
            assertThat(context).hasSingleBean(ProblemHandler.class);
        });
    }

    @Test
    void withoutTheCallersHashesTheServiceDoesNotStart() {
        runner.withPropertyValues("waitroom.security.ops-token=" + TestHttp.OPS_TOKEN)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("waitroom.security.callers.<service>")
                        .hasMessageContaining("WAITROOM_SECURITY_CALLERS_<SERVICE>"));
    }

    @Test
    void theRetiredSharedTokenStopsTheStartAndNamesTheFix() {
        for (String property : new String[] {
            "waitroom.security.internal-token=" + OperatorTokens.generate(),
            "waitroom.security.internal-token-previous=" + OperatorTokens.generate()
        }) {
            withSecrets
                    .withPropertyValues(property)
                    .run(context -> assertThat(context)
                            .getFailure()
                            .rootCause()
                            .hasMessageContaining("is no longer used")
                            .hasMessageContaining("waitroom.security.service-credential")
                            .hasMessageContaining("waitroom.security.callers.<service>"));
        }
    }

    @Test
    void aCallerHashThatIsNotASha256StopsTheStart() {
        for (String hash : new String[] {
            KitCredentials.BOOKING.value(),
            KitCredentials.BOOKING.sha256Hex().substring(1),
            KitCredentials.BOOKING
                    .sha256Hex()
                    .replace(KitCredentials.BOOKING.sha256Hex().charAt(0), 'g'),
            KitCredentials.BOOKING.sha256Hex() + "," + KitCredentials.GATEWAY.sha256Hex() + ","
                    + KitCredentials.COORDINATOR.sha256Hex()
        }) {
            withSecrets
                    .withPropertyValues("waitroom.security.callers.booking=" + hash)
                    .run(context -> assertThat(context)
                            .getFailure()
                            .rootCause()
                            .hasMessageContaining("waitroom.security.callers.booking"));
        }
    }

    @Test
    void rulesForACallerWithoutAHashOrAHashWithoutRulesOrAnUnknownCallerStopTheStart() {
        withSecrets
                .withPropertyValues("waitroom.web.callers.coordinator=/internal/**")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("waitroom.web.callers.coordinator")
                        .hasMessageContaining("WAITROOM_SECURITY_CALLERS_COORDINATOR"));
        withSecrets
                .withPropertyValues("waitroom.security.callers.coordinator=" + KitCredentials.COORDINATOR.sha256Hex())
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("allows it no route")
                        .hasMessageContaining("WAITROOM_SECURITY_CALLERS_COORDINATOR"));
        withSecrets
                .withPropertyValues("waitroom.security.callers.shop=" + KitCredentials.COORDINATOR.sha256Hex())
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("waitroom.security.callers.shop names no Waitroom service"));
    }

    @Test
    void anOwnCredentialOfAnotherFormStopsTheStart() {
        withSecrets
                .withPropertyValues("waitroom.security.service-credential=" + OperatorTokens.generate())
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("WAITROOM_SECURITY_SERVICECREDENTIAL")
                        .hasMessageContaining("wrs_<service>_"));
        withSecrets
                .withPropertyValues("waitroom.security.service-credential=" + KitCredentials.COORDINATOR.value())
                .run(context -> assertThat(context.getBean(WebKitProperties.class)
                                .security()
                                .requireServiceCredential("a test"))
                        .isEqualTo(KitCredentials.COORDINATOR.value()));
    }

    @Test
    void withoutTheOpsTokenTheServiceDoesNotStart() {
        runner.withPropertyValues(KitCredentials.properties())
                .withPropertyValues("waitroom.security.ops-token= ")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("WAITROOM_SECURITY_OPSTOKEN"));
    }

    @Test
    void aShortSecretIsRefused() {
        withSecrets
                .withPropertyValues("waitroom.security.ops-token=short")
                .run(context ->
                        assertThat(context).getFailure().rootCause().hasMessageContaining("at least 16 characters"));
    }

    @Test
    void aCheckWithoutPathsIsOffAndNeedsNoSecret() {
        runner.withPropertyValues("waitroom.web.internal-credential.paths=", "waitroom.web.ops-credential.paths=")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("webKitInternalCredentialFilter", FilterRegistrationBean.class)
                                    .isEnabled())
                            .isFalse();
                    assertThat(context.getBean("webKitOpsTokenFilter", FilterRegistrationBean.class)
                                    .isEnabled())
                            .isFalse();
                    assertThat(context.getBean("webKitRequestIdFilter", FilterRegistrationBean.class)
                                    .isEnabled())
                            .isTrue();
                });
    }

    @Test
    void aPatternThatIsNotSupportedStopsTheStart() {
        withSecrets
                .withPropertyValues("waitroom.web.ops-credential.paths=/admin/*x/events")
                .run(context ->
                        assertThat(context).getFailure().rootCause().hasMessageContaining("'/admin/*x/events'"));
    }

    @Test
    void theSecretsNeverShowInToString() {
        withSecrets
                .withPropertyValues("waitroom.security.service-credential=" + KitCredentials.COORDINATOR.value())
                .run(context -> assertThat(
                                context.getBean(WebKitProperties.class).toString())
                        .doesNotContain(
                                KitCredentials.GATEWAY.value(),
                                KitCredentials.COORDINATOR.value(),
                                KitCredentials.COORDINATOR.value().substring(16),
                                TestHttp.OPS_TOKEN)
                        .contains("serviceCredential=****", "callers=["));
    }

    @Test
    void aServiceSetsItsOwnPathsAndLimit() {
        withSecrets
                .withPropertyValues(
                        "waitroom.web.internal-credential.paths=/internal/**",
                        "waitroom.web.internal-credential.public-paths=GET /.well-known/jwks.json",
                        "waitroom.web.max-body-size=8192B")
                .run(context -> {
                    WebKitProperties.Web web =
                            context.getBean(WebKitProperties.class).web();
                    assertThat(web.internalCredential().paths()).isEqualTo(List.of("/internal/**"));
                    assertThat(web.internalCredential().publicPaths()).containsExactly("GET /.well-known/jwks.json");
                    assertThat(web.maxBodySize().toBytes()).isEqualTo(8192);
                });
    }
}
