package dev.waitroom.gateway.status;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.WaitingBucket;
import dev.waitroom.gateway.buckets.LocalTokenBuckets;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.gateway.identity.EdgeCookies;
import dev.waitroom.gateway.warmup.WarmupStep;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The edge status path before the gateway reports ready, in process, as {@link EdgeStatusWebFilter} runs it for a
 * poll it answers: the two cookies read from the header, the visitor cookie and the queue ticket verified (minted here
 * with the gateway's own keys), the per-visitor token bucket, {@link EdgeStatusPolicy} and {@link EdgeStatusJson}.
 *
 * <p>Against a synthetic snapshot of a private {@link EventId#warmUp()} event, built here and never put in the
 * snapshot cache: nothing is fetched from the queue-service, no liveness is reported, no meter counts it, and the token
 * bucket is this step's own (the filter's keeps the real visitors' budgets). A ticket's order key falls before or
 * after the snapshot's offer watermark, so both the answer and the forward decisions run; a poll far behind the
 * watermark that is not answered fails the step, so a warm-up that stopped exercising the answer says so in the log.
 */
@Component
@Order(1) // the path of nearly every request of a sale: first, so a slow step before it takes none of its time
class EdgeStatusWarmup implements WarmupStep {

    private static final int BUCKETS = 64;

    private static final int ORDER_KEYS_PER_BUCKET = 128;

    private final VisitorCookieCodec visitors;
    private final QueueTicketCodec tickets;
    private final EdgeStatusPolicy policy;
    private final LocalTokenBuckets buckets;
    private final String visitorCookieName;
    private final String ticketCookieName;
    private final Clock clock;
    private final EventId event = EventId.warmUp();
    private final String path = "/events/" + event.value() + "/queue/status";
    private final List<WaitingBucket> waiting = new ArrayList<>(BUCKETS);

    EdgeStatusWarmup(SecretsProperties secrets, EdgeProperties edge, EdgeCookies cookies, Clock clock) {
        this.visitors = secrets.visitorCookieCodec();
        this.tickets = secrets.queueTicketCodec();
        this.policy = new EdgeStatusPolicy(edge.snapshotMaxAge(), edge.ticketMaxAge());
        EdgeProperties.Limit limit = edge.rateLimits().status();
        this.buckets = new LocalTokenBuckets(limit.replenishRate(), limit.burstCapacity(), 1024, System::nanoTime);
        this.visitorCookieName = cookies.visitorName();
        this.ticketCookieName = cookies.ticketName();
        this.clock = clock;
        for (int b = 1; b <= BUCKETS; b++) {
            waiting.add(new WaitingBucket((long) b * ORDER_KEYS_PER_BUCKET, ORDER_KEYS_PER_BUCKET));
        }
    }

    @Override
    public String name() {
        return "edge status";
    }

    @Override
    public void call(int iteration) throws Exception {
        Instant now = clock.instant();
        VisitorId visitor = VisitorId.random();
        long orderKey = 1 + (iteration * 7919L) % ((long) BUCKETS * ORDER_KEYS_PER_BUCKET);
        String cookie = visitorCookieName + "=" + visitors.encode(visitor) + "; " + ticketCookieName + "="
                + tickets.encode(new QueueTicket(event.value(), "warmup-" + iteration, orderKey, now.minusSeconds(1)));
        List<String> header = List.of(cookie);
        EventId polled = EdgeStatusWebFilter.statusPathEvent(path);
        VisitorId verified = visitors.decode(EdgeStatusWebFilter.cookieValue(header, visitorCookieName));
        buckets.tryTake(verified.value(), 1);
        QueueTicket ticket = tickets.decode(EdgeStatusWebFilter.cookieValue(header, ticketCookieName));
        EdgeStatusPolicy.Decision decision = policy.decide(polled.value(), ticket, snapshot(now), now);
        if (decision instanceof EdgeStatusPolicy.Answer answer) {
            EdgeStatusJson.write(answer.status());
        } else if (orderKey > 2 * ORDER_KEYS_PER_BUCKET) {
            // two buckets behind the offers, the edge answers: a warm-up that forwards it exercises the wrong path
            throw new IllegalStateException("the edge forwarded a poll far from the offers: " + decision);
        }
    }

    /** An open, drawn, queueing event whose offers have reached the first bucket, as fresh as a snapshot gets. */
    private TimedSnapshot snapshot(Instant now) {
        return new TimedSnapshot(
                new QueueSnapshot(
                        event.value(),
                        EventPhase.OPEN,
                        OperatingMode.QUEUEING,
                        null,
                        1,
                        10,
                        (long) ORDER_KEYS_PER_BUCKET,
                        now.minus(Duration.ofHours(1)),
                        true,
                        0L,
                        (long) BUCKETS * ORDER_KEYS_PER_BUCKET,
                        waiting,
                        now,
                        JoinGate.OPEN,
                        List.of(),
                        null,
                        null,
                        null),
                now);
    }
}
