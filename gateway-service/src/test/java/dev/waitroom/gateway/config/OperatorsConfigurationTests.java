package dev.waitroom.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.ops.Operator;
import dev.waitroom.contract.ops.OperatorTokens;
import dev.waitroom.testsupport.ServiceCredentials;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/** Named operators in the gateway's configuration: enough without a plain ops token, checked at start. */
class OperatorsConfigurationTests {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(SecretsProperties.class)
    static class Secrets {}

    final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Secrets.class)
            .withPropertyValues(
                    "waitroom.security.service-credential="
                            + ServiceCredentials.generate("gateway").credential(),
                    "waitroom.security.ticket-key=" + key(),
                    "waitroom.security.visitor-key=" + key());

    static String key() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Test
    void namedOperatorsAloneAreEnoughAndNeverPrinted() {
        String token = OperatorTokens.generate();
        runner.withPropertyValues(
                        "waitroom.security.operators[0].name=alice",
                        "waitroom.security.operators[0].role=viewer",
                        "waitroom.security.operators[0].token-hash=" + OperatorTokens.hash(token))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    SecretsProperties secrets = context.getBean(SecretsProperties.class);
                    assertThat(secrets.operatorCredentials().authenticate(token))
                            .contains(Operator.of("alice", "viewer"));
                    assertThat(secrets.toString())
                            .contains("alice (viewer)")
                            .doesNotContain(OperatorTokens.hash(token));
                });
    }

    @Test
    void withoutAnyOperatorCredentialOrWithABadOneTheGatewayDoesNotStart() {
        runner.run(context -> assertThat(context.getStartupFailure())
                .rootCause()
                .hasMessageContaining("WAITROOM_SECURITY_OPSTOKEN")
                .hasMessageContaining("waitroom.security.operators"));
        String token = OperatorTokens.generate();
        runner.withPropertyValues(
                        "waitroom.security.operators[0].name=alice",
                        "waitroom.security.operators[0].role=admin",
                        "waitroom.security.operators[0].token-hash=" + token)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("operators[0]")
                        .hasMessageNotContaining(token));
    }
}
