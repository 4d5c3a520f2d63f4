package dev.waitroom.coordinator.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Secrets have no usable default: without them the coordinator refuses to start, and they never show in logs. */
class SecurityPropertiesTests {

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(SecurityProperties.class)
	static class Config {

	}

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Config.class);

	@Test
	void refusesToStartWithoutTheOpsToken() {
		this.runner.withPropertyValues("waitroom.security.internal-token=" + "i".repeat(32))
			.run(context -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("waitroom.security.ops-token"));
	}

	@Test
	void refusesToStartWithoutTheInternalToken() {
		this.runner.withPropertyValues("waitroom.security.ops-token=" + "o".repeat(32))
			.run(context -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("waitroom.security.internal-token"));
	}

	@Test
	void refusesAShortSecret() {
		this.runner.withPropertyValues("waitroom.security.ops-token=short", "waitroom.security.internal-token=" + "i".repeat(32))
			.run(context -> assertThat(context).hasFailed());
	}

	@Test
	void neverPrintsTheSecrets() {
		SecurityProperties properties = new SecurityProperties("o".repeat(32), "i".repeat(32));
		assertThat(properties.toString()).doesNotContain("oooo", "iiii");
	}

}
