package dev.waitroom.gateway.proofofwork;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Mono;

/**
 * The proof-of-work gate's challenges (docs/design/abuse/proof-of-work.md): their key, and {@code GET
 * /events/{eventId}/queue/challenge}, answered by the gateway itself: 200 with a challenge when the event requires
 * one, 204 when it does not. A join refused for want of a solution carries a challenge too, so the page needs this
 * route only when it wants to solve before its first join.
 */
@Configuration(proxyBeanMethods = false)
class ProofOfWorkConfiguration {

    @Bean
    JoinChallenges joinChallenges(SecretsProperties secrets, Clock clock, ProofOfWorkProperties properties) {
        return JoinChallenges.of(secrets.visitorHmacKey(), clock, properties.validity());
    }

    @Bean
    SpentSolutions spentSolutions(ReactiveStringRedisTemplate redis, Clock clock, EdgeProperties edge) {
        return new SpentSolutions(redis, clock, edge.redisTimeout());
    }

    @Bean
    RouterFunction<ServerResponse> joinChallengeRoute(
            JoinChallenges challenges, JoinGates gates, ProofOfWorkMeters meters) {
        return RouterFunctions.route()
                .GET("/events/{eventId}/queue/challenge", request -> challenge(request, challenges, gates, meters))
                .build();
    }

    private static Mono<ServerResponse> challenge(
            ServerRequest request, JoinChallenges challenges, JoinGates gates, ProofOfWorkMeters meters) {
        EventId event = EventId.parse(request.pathVariable("eventId"))
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
        return gates.proofOfWorkDifficulty(event).flatMap(gate -> {
            if (gate instanceof JoinGates.Gate.UnknownEvent) {
                return Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND));
            }
            if (!(gate instanceof JoinGates.Gate.Difficulty known)) {
                return Mono.error(new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE));
            }
            long difficulty = known.value();
            if (difficulty <= 0) {
                return ServerResponse.noContent()
                        .cacheControl(CacheControl.noStore())
                        .build();
            }
            meters.count(ProofOfWorkMeters.Outcome.ISSUED);
            return ServerResponse.ok()
                    .cacheControl(CacheControl.noStore())
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(challenges.issue(event, difficulty));
        });
    }
}
