package dev.waitroom.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.verifier.autoconfigure.AdmissionVerifierAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

class AdmissionVerifierAutoConfigurationTests {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdmissionVerifierAutoConfiguration.class));

    @Test
    void staysAwayUntilAnAudienceIsSet() {
        runner.run(context -> assertThat(context).doesNotHaveBean(AdmissionVerifier.class));
    }

    @Test
    void registersTheFilterWithStaticKeys() {
        runner.withPropertyValues("waitroom.verifier.audience=shop.example", "waitroom.verifier.jwks=" + Vectors.jwks())
                .run(context -> {
                    assertThat(context).hasSingleBean(AdmissionVerifier.class);
                    assertThat(context).hasSingleBean(FilterRegistrationBean.class);
                });
    }

    @Test
    void refusesToStartWithTwoKeySourcesOrNone() {
        runner.withPropertyValues("waitroom.verifier.audience=shop.example")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("exactly one of jwks-url and jwks"));
        runner.withPropertyValues(
                        "waitroom.verifier.audience=shop.example",
                        "waitroom.verifier.jwks=" + Vectors.jwks(),
                        "waitroom.verifier.jwks-url=http://127.0.0.1:1/keys")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void canBeSwitchedOffWhileKeepingTheVerifier() {
        runner.withPropertyValues(
                        "waitroom.verifier.audience=shop.example",
                        "waitroom.verifier.jwks=" + Vectors.jwks(),
                        "waitroom.verifier.enabled=false")
                .run(context -> {
                    assertThat(context).hasSingleBean(AdmissionVerifier.class);
                    assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
                });
    }
}
