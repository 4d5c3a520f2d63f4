package dev.waitroom.booking;

import dev.waitroom.testsupport.RandomSecrets;
import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.tokens.AdmissionHeaderKey;
import dev.waitroom.tokens.AdmissionHeaderSigner;
import java.util.Base64;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/** Random secrets for this test JVM: nothing reusable is ever written down. */
public final class TestSecrets implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    public static final String OPS_TOKEN = RandomSecrets.base64Url(24);
    /** The gateway's credential, booking's only caller (its {@code /admin/**} routes), configured by its hash. */
    public static final ServiceCredentials GATEWAY = ServiceCredentials.generate("gateway");
    /** Booking's own, on its calls to the coordinator. */
    public static final ServiceCredentials BOOKING = ServiceCredentials.generate("booking");
    /** The coordinator's, which calls booking for nothing: unknown here. */
    public static final ServiceCredentials COORDINATOR = ServiceCredentials.generate("coordinator");

    public static final byte[] WEBHOOK_KEY = RandomSecrets.bytes(32);
    /**
     * The gateway's {@code Waitroom-Admission} key; tests sign as the gateway would, and booking verifies with its public
     * half, given as a fixed JWKS ({@code waitroom.verifier.jwks}) as an origin without a route to the gateway would.
     */
    public static final AdmissionHeaderSigner ADMISSION_HEADERS =
            AdmissionHeaderSigner.of(AdmissionHeaderKey.generate(), null);

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of(
                        "waitroom.security.ops-token=" + OPS_TOKEN,
                        BOOKING.credentialProperty(),
                        GATEWAY.callerProperty(),
                        "waitroom.security.webhook-secret="
                                + Base64.getEncoder().encodeToString(WEBHOOK_KEY),
                        "waitroom.verifier.jwks=" + ADMISSION_HEADERS.jwks())
                .applyTo(context);
    }
}
