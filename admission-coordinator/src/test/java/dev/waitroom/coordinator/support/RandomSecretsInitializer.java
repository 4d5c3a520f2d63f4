package dev.waitroom.coordinator.support;

import java.security.SecureRandom;
import java.util.Base64;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/** Fresh random secrets for every test context: nothing in the repository is usable as a credential. */
public final class RandomSecretsInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final SecureRandom RANDOM = new SecureRandom();

    public static String randomSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of(
                        "waitroom.security.ops-token=" + randomSecret(),
                        "waitroom.security.internal-token=" + randomSecret())
                .applyTo(context);
    }
}
