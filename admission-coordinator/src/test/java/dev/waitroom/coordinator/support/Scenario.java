package dev.waitroom.coordinator.support;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventConfig;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.grants.LiveCounts;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.rate.EventRates;
import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.tick.AdmissionTicker;
import dev.waitroom.coordinator.tick.CoordinatorProperties;
import dev.waitroom.testsupport.MutableClock;
import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.testsupport.queue.FakeQueueService;
import dev.waitroom.tokens.VisitorId;
import dev.waitroom.web.WebKitProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import org.springframework.context.ApplicationContext;

/**
 * Drives the real beans the way the scheduler and the queue service would, with the test clock; one bean per test
 * context ({@link TestStores}), holding no state of its own.
 */
public final class Scenario {

    public final EventManagement management;

    /** The queue-service the coordinator talks to, shaped and read directly by the tests. */
    public final FakeQueueService queue;

    /** The coordinator's own client of it ({@code RestClientQueueDirectory}), for a call as the coordinator makes it. */
    public final QueueDirectory directory;

    public final AdmissionTicker ticker;

    public final EventRates rates;

    public final MutableClock clock;

    public final Grants grants;

    private final ApplicationContext context;

    Scenario(ApplicationContext context) {
        this.context = context;
        this.management = context.getBean(EventManagement.class);
        this.queue = context.getBean(FakeQueueService.class);
        this.directory = context.getBean(QueueDirectory.class);
        this.ticker = context.getBean(AdmissionTicker.class);
        this.rates = context.getBean(EventRates.class);
        this.clock = context.getBean(MutableClock.class);
        this.grants = context.getBean(Grants.class);
    }

    /** Another coordinator instance (lease owner {@code owner}) over the same beans, ticked by hand. */
    public AdmissionTicker coordinator(String owner, Duration lease, Duration renewEvery, LongSupplier nanoTime) {
        CoordinatorProperties properties = this.context.getBean(CoordinatorProperties.class);
        return this.ticker.asInstance(properties.withInstance(owner, lease, renewEvery), nanoTime);
    }

    /**
     * HTTP to this coordinator as the gateway and booking call it: each route with the credential of the service that
     * calls it ({@link RandomSecretsInitializer#credentialFor}).
     */
    public Http http() {
        return new Http(port()).internalCredential(RandomSecretsInitializer::credentialFor);
    }

    /** HTTP to this coordinator with one service's credential on every call. */
    public Http as(ServiceCredentials caller) {
        return new Http(port()).header(Headers.INTERNAL, caller.credential());
    }

    /** HTTP to this coordinator's ops API: the internal credential and the ops bearer token. */
    public Http ops() {
        return http().header(
                        Headers.AUTHORIZATION,
                        Headers.BEARER_PREFIX + security().opsToken());
    }

    public int port() {
        return this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    /** The callers' hashes and the ops token of this test context (random, see RandomSecretsInitializer). */
    public WebKitProperties.Security security() {
        return this.context.getBean(WebKitProperties.class).security();
    }

    public static String eventId(String prefix) {
        byte[] b = new byte[5];
        ThreadLocalRandom.current().nextBytes(b);
        return prefix + "-" + HexFormat.of().formatHex(b);
    }

    public static EventConfig config(
            int ceiling,
            double rate,
            int batchMax,
            int offerTtl,
            int sessionTtl,
            int sessionMax,
            ExpiredOfferPolicy policy,
            AfterPurchase afterPurchase) {
        return new EventConfig(
                "Concert",
                null,
                ceiling,
                rate,
                batchMax,
                Duration.ofSeconds(offerTtl),
                Duration.ofSeconds(sessionTtl),
                Duration.ofSeconds(sessionMax),
                PresaleOrdering.RANDOM,
                IdentityScope.BROWSER,
                policy,
                afterPurchase,
                0,
                0);
    }

    /** Creates an event and opens it (draw through the queue). */
    public Event openEvent(String id, EventConfig config) {
        EventId eventId = EventId.of(id);
        this.management.create(eventId, config, "test");
        return this.management.open(eventId, "test", "test opens");
    }

    /** Opens a new event with a fresh id starting with {@code prefix}; returns the id. */
    public String openNewEvent(String prefix, EventConfig config) {
        String id = eventId(prefix);
        openEvent(id, config);
        return id;
    }

    public List<String> join(String eventId, int visitors) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < visitors; i++) {
            String v = VisitorId.random().value();
            this.queue.join(eventId, v);
            ids.add(v);
        }
        return ids;
    }

    /** A healthy booking report at the current test time. */
    public void healthy() {
        this.rates.record(new HealthSample(this.clock.instant(), 1, 100, 40, 80, 0, 1, 0, 20, 0));
    }

    /** Enough healthy windows that the controller runs at full rate. */
    public void fullRate() {
        for (int i = 0; i < 40; i++) {
            healthy();
        }
    }

    /** Moves time on by {@code step}, reports health, ticks the event once; returns the offers made. */
    public int tick(String eventId, Duration step) {
        return tick(this.ticker, eventId, step);
    }

    /** {@link #tick(String, Duration)} on another coordinator instance. */
    public int tick(AdmissionTicker coordinator, String eventId, Duration step) {
        this.clock.advance(step);
        fullRate();
        return coordinator.tick(this.management.get(EventId.of(eventId)));
    }

    /** Ticks (one second apart) until {@code expected} live grants exist or 20 ticks passed. */
    public LiveCounts tickUntilLive(String eventId, long expected) {
        for (int i = 0; i < 20 && this.grants.count(EventId.of(eventId)).live() < expected; i++) {
            tick(eventId, Duration.ofSeconds(1));
        }
        return this.grants.count(EventId.of(eventId));
    }

    public Instant now() {
        return this.clock.instant();
    }
}
