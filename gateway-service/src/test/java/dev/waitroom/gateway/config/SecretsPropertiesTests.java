package dev.waitroom.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.ServiceCredentials;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

class SecretsPropertiesTests {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(SecretsProperties.class)
    static class Secrets {}

    final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Secrets.class);

    static String key() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Test
    void refusesToStartWithoutEverySecretNamingTheMissingOne() {
        runner.withPropertyValues(
                        "waitroom.security.ops-token=o",
                        "waitroom.security.service-credential=" + GATEWAY,
                        "waitroom.security.ticket-key=" + key())
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("visitor-key");
                });
        runner.run(context -> assertThat(context).hasFailed());
    }

    @Test
    void refusesShortOrMalformedKeys() {
        runner.withPropertyValues(
                        "waitroom.security.ops-token=o",
                        "waitroom.security.service-credential=" + GATEWAY,
                        "waitroom.security.ticket-key=" + Base64.getEncoder().encodeToString(new byte[8]),
                        "waitroom.security.visitor-key=" + key())
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("ticket-key");
                });
    }

    @Test
    void startsWithRandomSecretsAndNeverPrintsThem() {
        String ops = "ops-" + key();
        String internal = ServiceCredentials.generate("gateway").credential();
        runner.withPropertyValues(
                        "waitroom.security.ops-token=" + ops,
                        "waitroom.security.service-credential=" + internal,
                        "waitroom.security.ticket-key=" + key(),
                        "waitroom.security.visitor-key=" + key())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    SecretsProperties secrets = context.getBean(SecretsProperties.class);
                    assertThat(secrets.toString())
                            .doesNotContain(ops)
                            .doesNotContain(internal)
                            .doesNotContain(internal.substring(12));
                });
    }

    @Test
    void refusesTheRetiredSharedTokenAndACredentialThatIsNotTheGateways() {
        String[] secrets = {
            "waitroom.security.ops-token=ops-" + key(),
            "waitroom.security.ticket-key=" + key(),
            "waitroom.security.visitor-key=" + key()
        };
        runner.withPropertyValues(secrets)
                .withPropertyValues(
                        "waitroom.security.service-credential=" + GATEWAY,
                        "waitroom.security.internal-token=internal-" + key())
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("WAITROOM_SECURITY_INTERNALTOKEN")
                        .hasMessageContaining("no longer used")
                        .hasMessageContaining("waitroom.security.service-credential"));
        for (String other : new String[] {
            "internal-" + key(), ServiceCredentials.generate("coordinator").credential(), GATEWAY + "x"
        }) {
            runner.withPropertyValues(secrets)
                    .withPropertyValues("waitroom.security.service-credential=" + other)
                    .run(context -> assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("WAITROOM_SECURITY_SERVICECREDENTIAL")
                            .hasMessageContaining("wrs_gateway_"));
        }
        runner.withPropertyValues(secrets)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("WAITROOM_SECURITY_SERVICECREDENTIAL"));
    }

    private static final String GATEWAY = ServiceCredentials.generate("gateway").credential();
}
