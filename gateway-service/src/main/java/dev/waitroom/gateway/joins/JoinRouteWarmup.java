package dev.waitroom.gateway.joins;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.identity.EdgeCookies;
import dev.waitroom.gateway.warmup.WarmupStep;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The join route before the gateway reports ready, through the gateway's own Netty server on loopback: route matching,
 * the join route's filters (Redis required, the client and visitor limits, the proof-of-work gate, {@code JoinBatch}),
 * the {@link JoinBatcher}'s batches and its connections to the queue-service, and the answer written back. A fresh
 * gateway met the opening minute's first joins with all of that still interpreted (issue #29): the warm-ups before
 * this one ran the edge status and the page, not one join.
 *
 * <p>For a private {@link EventId#warmUp()} event whose synthetic snapshot (open, queueing, no proof of work) the
 * gateway's {@link EventSnapshots} holds while the step runs and forgets when it ends. The queue-service never heard
 * of the event: it refuses each join of a batch (404, unknown event) and stores nothing, so the only traces are the
 * per-address limit counters of the documentation addresses the requests come from (RFC 5737, which expire within
 * seconds) and the gateway's own request counters. Each call sends {@value #BURST} joins at once, each of a new visitor
 * whose cookie the gateway's own key mints (no new identity is issued), so they meet in batches as a rush's do. While
 * the queue-service is not up yet (the launcher starts the services together) the gateway answers 503: the call waits
 * a moment and the step goes on within its share of the warm-up's time.
 */
@Component
@Order(5) // last: the queue-service, started beside the gateway, has had the longest to come up
class JoinRouteWarmup implements WarmupStep {

    /** Joins sent together by one call: enough to fill batches behind the one in flight. */
    static final int BURST = 16;

    /** How long a call waits when the queue-service was not up yet. */
    private static final Duration QUEUE_NOT_UP_PAUSE = Duration.ofMillis(100);

    /** RFC 5737's documentation networks: 768 client addresses, so no address's join budget is spent. */
    private static final String[] NETWORKS = {"192.0.2.", "198.51.100.", "203.0.113."};

    private final Environment environment;
    private final EventSnapshots snapshots;
    private final VisitorCookieCodec visitors;
    private final String visitorCookieName;
    private final Clock clock;
    private final EventId event = EventId.warmUp();
    private HttpClient http;
    private URI join;

    JoinRouteWarmup(
            Environment environment,
            EventSnapshots snapshots,
            SecretsProperties secrets,
            EdgeCookies cookies,
            Clock clock) {
        this.environment = environment;
        this.snapshots = snapshots;
        this.visitors = secrets.visitorCookieCodec();
        this.visitorCookieName = cookies.visitorName();
        this.clock = clock;
    }

    @Override
    public String name() {
        return "joins over loopback";
    }

    /** The largest part of the gateway's code a sale runs that the other steps do not: three shares of the time. */
    @Override
    public int weight() {
        return 3;
    }

    @Override
    public void call(int iteration) throws Exception {
        if (http == null) {
            http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            join = URI.create("http://" + WarmupStep.loopbackHost(environment) + ":"
                    + environment.getRequiredProperty("local.server.port") + "/events/" + event.value() + "/queue");
        }
        snapshots.holdWarmUp(event, snapshot(clock.instant()));
        List<CompletableFuture<HttpResponse<Void>>> sent = new ArrayList<>(BURST);
        for (int j = 0; j < BURST; j++) {
            int client = iteration * BURST + j;
            sent.add(http.sendAsync(
                    HttpRequest.newBuilder(join)
                            .timeout(Duration.ofSeconds(10)) // the first answers of a cold server on a busy box
                            .header("Cookie", visitorCookieName + "=" + visitors.encode(VisitorId.random()))
                            .header("X-Forwarded-For", NETWORKS[client % 3] + (1 + (client / 3) % 254))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.discarding()));
        }
        boolean queueNotUp = false;
        for (CompletableFuture<HttpResponse<Void>> answer : sent) {
            int status = answer.get().statusCode();
            if (status == 503) {
                queueNotUp = true;
            } else if (status != 404) {
                // the queue-service's refusal of an event it does not know is the answer the whole route ran for
                throw new IllegalStateException("a warm-up join was answered " + status + ", not the queue's 404");
            }
        }
        if (queueNotUp) {
            Thread.sleep(QUEUE_NOT_UP_PAUSE.toMillis());
        }
    }

    /** An open, queueing event without a proof-of-work gate, as fresh as a fetch leaves it. */
    private QueueSnapshot snapshot(Instant now) {
        return new QueueSnapshot(
                event.value(),
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                10,
                0L,
                now.minus(Duration.ofHours(1)),
                true,
                0L,
                0L,
                List.of(),
                now,
                JoinGate.OPEN,
                List.of(),
                null,
                null,
                null);
    }

    @Override
    public void close() {
        snapshots.forgetWarmUp(event);
        http = null; // its connections close when it is collected (HttpClient.close() is Java 21)
    }
}
