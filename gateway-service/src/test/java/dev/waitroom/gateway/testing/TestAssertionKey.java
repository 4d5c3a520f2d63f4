package dev.waitroom.gateway.testing;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * A random {@code waitroom.security.assertion-key} for every gateway started in this test JVM ({@code
 * META-INF/spring.factories} of the tests): the secret the {@code Waitroom-Admission} key is derived from when none is
 * configured (AdmissionHeaders). Added last, so a test that sets its own value (or none, to see the gateway refuse to
 * start) wins.
 */
public final class TestAssertionKey implements EnvironmentPostProcessor {

    public static final String ASSERTION_KEY = StubUpstreams.randomBase64(32);

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment
                .getPropertySources()
                .addLast(new MapPropertySource(
                        "waitroom-test-assertion-key", Map.of("waitroom.security.assertion-key", ASSERTION_KEY)));
    }
}
