package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.ops.Operator;
import dev.waitroom.contract.ops.OperatorTokens;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Named operators in the configuration: what starts, what does not, and what never shows. */
class OperatorPropertiesTests {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WebKitAutoConfiguration.class))
            .withPropertyValues(KitCredentials.properties());

    private final String token = OperatorTokens.generate();

    @Test
    void namedOperatorsAloneAreEnoughForTheOpsCheck() {
        runner.withPropertyValues(
                        "waitroom.security.operators[0].name=alice",
                        "waitroom.security.operators[0].role=admin",
                        "waitroom.security.operators[0].token-hash=" + OperatorTokens.hash(token))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    WebKitProperties.Security security =
                            context.getBean(WebKitProperties.class).security();
                    assertThat(security.operatorCredentials().authenticate(token))
                            .contains(Operator.of("alice", "admin"));
                    assertThat(security.toString())
                            .contains("alice (admin)")
                            .doesNotContain(OperatorTokens.hash(token), token);
                });
    }

    @Test
    void operatorsBindFromTheEnvironmentAsDeploymentsSetThem() {
        Map<String, Object> environment = Map.of(
                "WAITROOM_SECURITY_OPERATORS_0_NAME",
                "ops",
                "WAITROOM_SECURITY_OPERATORS_0_ROLE",
                "admin",
                "WAITROOM_SECURITY_OPERATORS_0_TOKENHASH",
                OperatorTokens.hash(token),
                "WAITROOM_SECURITY_OPSTOKENPREVIOUS",
                TestHttp.OPS_TOKEN);
        runner.withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment)))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    var credentials =
                            context.getBean(WebKitProperties.class).security().operatorCredentials();
                    assertThat(credentials.authenticate(token)).contains(Operator.of("ops", "admin"));
                    assertThat(credentials.authenticate(TestHttp.OPS_TOKEN)).contains(Operator.of("ops", "admin"));
                });
    }

    @Test
    void withoutAnyOperatorCredentialTheServiceDoesNotStart() {
        runner.run(context -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("WAITROOM_SECURITY_OPSTOKEN")
                .hasMessageContaining("waitroom.security.operators"));
    }

    @Test
    void aMisconfiguredOperatorStopsTheStartAndNamesTheEntry() {
        String hash = OperatorTokens.hash(token);
        runner.withPropertyValues(
                        "waitroom.security.operators[0].name=alice",
                        "waitroom.security.operators[0].token-hash=" + hash)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("operators[0]")
                        .hasMessageContaining("admin or viewer"));
        runner.withPropertyValues(
                        "waitroom.security.operators[0].name=alice",
                        "waitroom.security.operators[0].role=admin",
                        "waitroom.security.operators[0].token-hash=" + token)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("operators[0]")
                        .hasMessageContaining("sha256:")
                        .hasMessageNotContaining(token));
        runner.withPropertyValues(
                        "waitroom.security.operators[0].name=alice",
                        "waitroom.security.operators[0].role=admin",
                        "waitroom.security.operators[0].token-hash=" + hash,
                        "waitroom.security.operators[1].name=bob",
                        "waitroom.security.operators[1].role=viewer",
                        "waitroom.security.operators[1].token-hash=" + hash)
                .run(context ->
                        assertThat(context).getFailure().rootCause().hasMessageContaining("share a credential"));
        runner.withPropertyValues(
                        "waitroom.security.operators[0].name=alice smith",
                        "waitroom.security.operators[0].role=admin",
                        "waitroom.security.operators[0].token-hash=" + hash)
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("operator name"));
    }

    @Test
    void aShortPreviousValueIsRefused() {
        runner.withPropertyValues(
                        "waitroom.security.ops-token=" + TestHttp.OPS_TOKEN,
                        "waitroom.security.ops-token-previous=short")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("WAITROOM_SECURITY_OPSTOKENPREVIOUS")
                        .hasMessageContaining("at least 16"));
    }
}
