package dev.waitroom.gateway.proofofwork;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.tokens.HmacKey;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * With Redis out of reach a valid solution cannot be marked used, so the join is refused (503 problem) rather than
 * let through unrecorded, where it could be used again. With the queue-service stopped or slow, before this gateway
 * ever read the event's snapshot, its difficulty cannot be known: the join is refused (503) rather than let through
 * without the proof the event may ask for (issue #28, finding 7).
 */
class ProofOfWorkFailClosedTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private LettuceConnectionFactory unreachable;

    @AfterEach
    void close() {
        if (unreachable != null) {
            unreachable.destroy();
        }
    }

    @Test
    void aValidSolutionIsRefusedWhenRedisCannotRecordIt() throws Exception {
        unreachable = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", freePort()));
        unreachable.afterPropertiesSet();
        unreachable.start();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        EventId event = EventId.of("pow-closed");
        JoinChallenges challenges =
                JoinChallenges.of(HmacKey.of(new byte[32]), Clock.systemUTC(), Duration.ofMinutes(5));
        JoinGates gates = new JoinGates(null) {
            @Override
            Mono<JoinGates.Gate> proofOfWorkDifficulty(EventId asked) {
                return Mono.just(new JoinGates.Gate.Difficulty(1_000L));
            }
        };
        SpentSolutions spent = new SpentSolutions(
                new ReactiveStringRedisTemplate(unreachable), Clock.systemUTC(), Duration.ofMillis(500));
        ProofOfWorkGatewayFilterFactory factory =
                new ProofOfWorkGatewayFilterFactory(challenges, gates, spent, new ProofOfWorkMeters(meters));
        String proof = ProofOfWorkTests.solve(JSON.valueToTree(challenges.issue(event, 1_000)));
        MockServerWebExchange exchange = MockServerWebExchange.from(
                MockServerHttpRequest.post("/events/pow-closed/queue").header(Headers.PROOF_OF_WORK, proof));
        exchange.getAttributes()
                .put(ServerWebExchangeUtils.URI_TEMPLATE_VARIABLES_ATTRIBUTE, Map.of("eventId", event.value()));
        AtomicBoolean forwarded = new AtomicBoolean();

        factory.apply(new Object())
                .filter(exchange, forwardedExchange -> {
                    forwarded.set(true);
                    return Mono.empty();
                })
                .block(Duration.ofSeconds(10));

        assertThat(forwarded).isFalse();
        assertThat(exchange.getResponse().getStatusCode().value()).isEqualTo(503);
        assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isNotNull();
        assertThat(JSON.readTree(exchange.getResponse().getBodyAsString().block())
                        .get("type")
                        .asString())
                .isEqualTo(ProblemType.UNAVAILABLE.type().toString());
        assertThat(meters.get("waitroom.gateway.proof.of.work")
                        .tag("outcome", "unavailable")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aJoinIsRefusedWhenTheQueueServiceIsSlowAndNoSnapshotTellsTheDifficulty() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            // accepts connections (the backlog does) and never answers, as a queue-service stuck under load
            assertJoinRefusedUnforwarded(URI.create("http://127.0.0.1:" + silent.getLocalPort()));
        }
    }

    @Test
    void aJoinIsRefusedWhenTheQueueServiceIsStopped() throws Exception {
        assertJoinRefusedUnforwarded(URI.create("http://127.0.0.1:" + freePort()));
    }

    @Test
    void aJoinToAnEventTheQueueServiceDoesNotKnowIsRefusedAtTheEdgeAndOneCreatedSinceIsGated() throws Exception {
        StubUpstreams upstreams = StubUpstreams.get();
        EventId event = EventId.of("pow-unknown-" + UUID.randomUUID().toString().substring(0, 8));
        EventSnapshots snapshots = snapshotsFrom(upstreams.queue.uri(), StubUpstreams.GATEWAY.credential());
        Joined joined = join(snapshots, event, new SimpleMeterRegistry());
        assertThat(joined.forwarded()).isFalse();
        assertThat(joined.exchange().getResponse().getStatusCode().value()).isEqualTo(404);
        assertThat(problemType(joined.exchange()))
                .isEqualTo(ProblemType.UNKNOWN_EVENT.type().toString());
        assertThat(snapshots.isUnknown(event)).isTrue();

        // created a moment later with a gate: the next join asks again and meets it, the 404 just remembered or not
        upstreams.queue.event(event.value()).joinGate(new JoinGate(0, 1_000));
        Joined gated = join(snapshots, event, new SimpleMeterRegistry());
        assertThat(gated.forwarded()).isFalse();
        assertThat(gated.exchange().getResponse().getStatusCode().value()).isEqualTo(403);
        assertThat(problemType(gated.exchange()))
                .isEqualTo(ProblemType.PROOF_OF_WORK_REQUIRED.type().toString());
    }

    private void assertJoinRefusedUnforwarded(URI queue) throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Joined joined = join(snapshotsFrom(queue, StubUpstreams.GATEWAY.credential()), EventId.of("pow-blind"), meters);
        assertThat(joined.forwarded()).isFalse();
        assertThat(joined.exchange().getResponse().getStatusCode().value()).isEqualTo(503);
        assertThat(joined.exchange().getResponse().getHeaders().getFirst("Retry-After"))
                .isNotNull();
        assertThat(problemType(joined.exchange()))
                .isEqualTo(ProblemType.UNAVAILABLE.type().toString());
        assertThat(meters.get("waitroom.gateway.proof.of.work")
                        .tag("outcome", "gate_unknown")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    /** A join without a solution, through the gate as the gateway builds it, to a chain that records a forward. */
    private Joined join(EventSnapshots snapshots, EventId event, SimpleMeterRegistry meters) {
        unreachable = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1));
        unreachable.afterPropertiesSet();
        unreachable.start();
        JoinChallenges challenges =
                JoinChallenges.of(HmacKey.of(new byte[32]), Clock.systemUTC(), Duration.ofMinutes(5));
        SpentSolutions spent = new SpentSolutions(
                new ReactiveStringRedisTemplate(unreachable), Clock.systemUTC(), Duration.ofMillis(500));
        ProofOfWorkGatewayFilterFactory factory = new ProofOfWorkGatewayFilterFactory(
                challenges, new JoinGates(snapshots), spent, new ProofOfWorkMeters(meters));
        MockServerWebExchange exchange =
                MockServerWebExchange.from(MockServerHttpRequest.post("/events/" + event.value() + "/queue"));
        exchange.getAttributes()
                .put(ServerWebExchangeUtils.URI_TEMPLATE_VARIABLES_ATTRIBUTE, Map.of("eventId", event.value()));
        AtomicBoolean forwarded = new AtomicBoolean();
        factory.apply(new Object())
                .filter(exchange, forwardedExchange -> {
                    forwarded.set(true);
                    return Mono.empty();
                })
                .block(Duration.ofSeconds(10));
        unreachable.destroy();
        unreachable = null;
        return new Joined(exchange, forwarded.get());
    }

    private record Joined(MockServerWebExchange exchange, boolean forwarded) {}

    private static String problemType(MockServerWebExchange exchange) {
        return JSON.readTree(exchange.getResponse().getBodyAsString().block())
                .get("type")
                .asString();
    }

    /** The gateway's snapshots of a queue-service at {@code queue}, with a 500 ms time budget per call. */
    static EventSnapshots snapshotsFrom(URI queue, String credential) {
        String key = Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'k');
        EdgeProperties edge = new EdgeProperties(
                false,
                Duration.ofDays(1),
                Duration.ofSeconds(1),
                Duration.ofSeconds(2),
                1_000,
                Duration.ofMinutes(30),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                1000,
                new EdgeProperties.RateLimits(new EdgeProperties.Limit(2, 20, 1, 1000)),
                Duration.ofMillis(500),
                Duration.ofMillis(200),
                Duration.ofMinutes(30),
                true);
        return new EventSnapshots(
                new ServicesProperties(queue, queue, queue),
                new SecretsProperties("o", credential, key, key),
                edge,
                Clock.systemUTC(),
                new SimpleMeterRegistry(),
                ObservationRegistry.NOOP);
    }
}
