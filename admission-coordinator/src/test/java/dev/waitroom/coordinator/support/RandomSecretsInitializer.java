package dev.waitroom.coordinator.support;

import java.security.SecureRandom;
import java.util.Base64;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/** Fresh random secrets for every test context: nothing in the repository is usable as a credential. */
public final class RandomSecretsInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One per test JVM, unlike the credentials: every context shares the JVM's database, whose signing keys the first
     * context sealed with it (a context with another key would refuse to start, as it should).
     */
    public static final String KEY_ENCRYPTION_KEY = randomSecret();

    public static String randomSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of(
                        "waitroom.security.ops-token=" + randomSecret(),
                        "waitroom.security.internal-token=" + randomSecret(),
                        "waitroom.security.key-encryption-key=" + KEY_ENCRYPTION_KEY)
                .applyTo(context);
    }
}
