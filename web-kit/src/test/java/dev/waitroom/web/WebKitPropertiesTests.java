package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

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

    private final WebApplicationContextRunner withSecrets = runner.withPropertyValues(
            "waitroom.security.internal-token=" + TestHttp.INTERNAL_TOKEN,
            "waitroom.security.ops-token=" + TestHttp.OPS_TOKEN);

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
    void withoutTheInternalTokenTheServiceDoesNotStart() {
        runner.withPropertyValues("waitroom.security.ops-token=" + TestHttp.OPS_TOKEN)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("waitroom.security.internal-token")
                        .hasMessageContaining("WAITROOM_SECURITY_INTERNALTOKEN"));
    }

    @Test
    void withoutTheOpsTokenTheServiceDoesNotStart() {
        runner.withPropertyValues(
                        "waitroom.security.internal-token=" + TestHttp.INTERNAL_TOKEN, "waitroom.security.ops-token= ")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("WAITROOM_SECURITY_OPSTOKEN"));
    }

    @Test
    void aShortSecretIsRefused() {
        withSecrets
                .withPropertyValues("waitroom.security.internal-token=short")
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
                .withPropertyValues("waitroom.web.ops-credential.paths=/admin/*/events")
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("'/admin/*/events'"));
    }

    @Test
    void theSecretsNeverShowInToString() {
        withSecrets.run(
                context -> assertThat(context.getBean(WebKitProperties.class).toString())
                        .doesNotContain(TestHttp.INTERNAL_TOKEN, TestHttp.OPS_TOKEN)
                        .contains("internalToken=****"));
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
