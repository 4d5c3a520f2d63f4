package dev.waitroom.gateway.testing;

import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.testsupport.queue.FakeQueueService;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The three upstream services as small real HTTP servers (the queue-service is test-support's {@link FakeQueueService}), started once per test JVM, and the
 * random secrets the gateway under test is configured with.
 */
public final class StubUpstreams {

    private static final SecureRandom RANDOM = new SecureRandom();

    public static final String OPS_TOKEN = randomBase64(24);

    /** The gateway's own credential: the stubs answer only calls that carry it, as the real services would. */
    public static final ServiceCredentials GATEWAY = ServiceCredentials.generate("gateway");

    public static final String TICKET_KEY = randomBase64(32);

    public static final String VISITOR_KEY = randomBase64(32);

    private static volatile StubUpstreams instance;

    public final FakeQueueService queue;

    public final StubCoordinator coordinator;

    public final StubBooking booking;

    public final SessionRegistryWriter registry;

    private StubUpstreams() {
        this.registry = new SessionRegistryWriter();
        // the gateway's credential alone opens every route of the fake: tests push events with it as the coordinator
        // would
        this.queue = FakeQueueService.start(GATEWAY.credential(), GATEWAY.credential(), TICKET_KEY);
        this.coordinator = new StubCoordinator(GATEWAY.credential(), queue, registry);
        this.booking = new StubBooking(GATEWAY.credential());
    }

    public static StubUpstreams get() {
        if (instance == null) {
            synchronized (StubUpstreams.class) {
                if (instance == null) {
                    instance = new StubUpstreams();
                }
            }
        }
        return instance;
    }

    static String randomBase64(int bytes) {
        byte[] secret = new byte[bytes];
        RANDOM.nextBytes(secret);
        return Base64.getEncoder().encodeToString(secret);
    }
}
