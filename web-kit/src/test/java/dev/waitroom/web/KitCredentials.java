package dev.waitroom.web;

import dev.waitroom.contract.ServiceCredential;
import dev.waitroom.contract.WaitroomService;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The test service's callers, with credentials fresh for each test JVM: the gateway may call every route and is in a
 * rotation (its previous credential still accepted), booking only {@code GET /internal/things/*} and {@code GET /internal/caller}; the coordinator has
 * a credential of the right form that this service does not know.
 */
final class KitCredentials implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    static final ServiceCredential GATEWAY = ServiceCredential.generate(WaitroomService.GATEWAY);

    static final ServiceCredential GATEWAY_PREVIOUS = ServiceCredential.generate(WaitroomService.GATEWAY);

    static final ServiceCredential BOOKING = ServiceCredential.generate(WaitroomService.BOOKING);

    static final ServiceCredential COORDINATOR = ServiceCredential.generate(WaitroomService.COORDINATOR);

    /** The callers' hashes and routes as Spring properties. */
    static String[] properties() {
        return new String[] {
            "waitroom.security.callers.gateway=" + GATEWAY.sha256Hex() + "," + GATEWAY_PREVIOUS.sha256Hex(),
            "waitroom.security.callers.booking=" + BOOKING.sha256Hex(),
            "waitroom.web.callers.gateway=/**",
            "waitroom.web.callers.booking=GET /internal/things/*,GET /internal/caller"
        };
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of(properties()).applyTo(context);
    }
}
