package dev.waitroom.gateway.testing;

import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.ShopAssertionCodec;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * A random shop-assertion key for every gateway started in this test JVM ({@code META-INF/spring.factories} of the
 * tests), as the launcher generates one for a real start. Added last, so a test that sets its own value (or none, to
 * see the gateway refuse to start) wins. Booking's side of the key is {@link #codec()}: what a stub booking verifies
 * with.
 */
public final class TestAssertionKey implements EnvironmentPostProcessor {

    public static final String ASSERTION_KEY = StubUpstreams.randomBase64(32);

    private static final ShopAssertionCodec CODEC = ShopAssertionCodec.of(HmacKey.fromBase64(ASSERTION_KEY));

    public static ShopAssertionCodec codec() {
        return CODEC;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment
                .getPropertySources()
                .addLast(new MapPropertySource(
                        "waitroom-test-assertion-key", Map.of("waitroom.security.assertion-key", ASSERTION_KEY)));
    }
}
