package dev.waitroom.queue;

import dev.waitroom.testsupport.RandomSecrets;
import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.testsupport.queue.FakeQueueService;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicketCodec;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Random secrets, one set per test JVM (so every test class shares one Spring context): the ticket key and the
 * credentials of the service's two callers, the gateway and the coordinator, configured by their hashes; booking's
 * credential is one this service does not know.
 */
public final class TestSecrets implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    public static final ServiceCredentials GATEWAY = ServiceCredentials.generate("gateway");
    public static final ServiceCredentials COORDINATOR = ServiceCredentials.generate("coordinator");
    public static final ServiceCredentials BOOKING = ServiceCredentials.generate("booking");
    public static final String TICKET_KEY = RandomSecrets.base64(32);

    public static QueueTicketCodec ticketCodec() {
        return QueueTicketCodec.of(HmacKey.fromBase64(TICKET_KEY));
    }

    /**
     * The credential of the service that makes this call in a deployment: the coordinator's on the internal API but
     * the gateway's snapshot, liveness and batches of joins; the gateway's on the visitor routes.
     */
    public static String credentialFor(String method, String path) {
        return FakeQueueService.gatewaysRoute(method, path) ? GATEWAY.credential() : COORDINATOR.credential();
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of(
                        GATEWAY.callerProperty(),
                        COORDINATOR.callerProperty(),
                        "waitroom.security.ticket-key=" + TICKET_KEY)
                .applyTo(context);
    }
}
