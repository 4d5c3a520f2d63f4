package dev.waitroom.gateway.proofofwork;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.tokens.HmacKey;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
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
 * let through unrecorded, where it could be used again.
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
            Mono<Long> proofOfWorkDifficulty(EventId asked) {
                return Mono.just(1_000L);
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
}
