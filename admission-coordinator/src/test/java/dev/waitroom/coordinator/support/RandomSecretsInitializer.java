package dev.waitroom.coordinator.support;

import dev.waitroom.testsupport.ServiceCredentials;
import java.security.SecureRandom;
import java.util.Base64;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Fresh random secrets for every test context (the services' credentials once per test JVM): nothing in the repository
 * is usable as a credential.
 */
public final class RandomSecretsInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One per test JVM, unlike the credentials: every context shares the JVM's database, whose signing keys the first
     * context sealed with it (a context with another key would refuse to start, as it should).
     */
    public static final String KEY_ENCRYPTION_KEY = randomSecret();

    /** The coordinator's own credential, on its calls to the queue-service. */
    public static final ServiceCredentials COORDINATOR = ServiceCredentials.generate("coordinator");

    /** The gateway's: what it forwards (claim, renew, leave, signals, the ops API) and its edge health reports. */
    public static final ServiceCredentials GATEWAY = ServiceCredentials.generate("gateway");

    /** The gateway's before a rotation: every context accepts it beside the current one, as during a rotation. */
    public static final ServiceCredentials GATEWAY_PREVIOUS = ServiceCredentials.generate("gateway");

    /** Booking's: its health, sold-out, purchase and category signals. */
    public static final ServiceCredentials BOOKING = ServiceCredentials.generate("booking");

    /** The queue-service's, which calls the coordinator for nothing: unknown here. */
    public static final ServiceCredentials QUEUE = ServiceCredentials.generate("queue");

    /** The credential of the service that makes this call in a deployment: booking's on its routes, else the gateway's. */
    public static String credentialFor(String method, String path) {
        boolean booking = path.startsWith("/internal/") && !path.startsWith("/internal/edge-health");
        return booking ? BOOKING.credential() : GATEWAY.credential();
    }

    public static String randomSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of(
                        "waitroom.security.ops-token=" + randomSecret(),
                        COORDINATOR.credentialProperty(),
                        GATEWAY.callerProperty(GATEWAY_PREVIOUS),
                        BOOKING.callerProperty(),
                        "waitroom.security.key-encryption-key=" + KEY_ENCRYPTION_KEY)
                .applyTo(context);
    }
}
