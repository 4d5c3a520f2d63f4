package dev.waitroom.gateway.proofofwork;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.correlation.RequestIdWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.gateway.proofofwork.ProofOfWorkMeters.Outcome;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The proof-of-work gate on join ({@code ProofOfWork} on route {@code queue-join}; docs/design/abuse/proof-of-work.md).
 * When the event's join gate has a difficulty, a join passes only with a solved challenge in {@code X-Waitroom-Proof}
 * that was issued for this event, has not expired, and was never used before (a shared record in Redis); every join
 * without one is refused, a visitor who already has a place included (the page solves before each join it makes, not
 * before its polls). A refusal carries a fresh challenge in its {@code challenge} member, so the page needs no extra
 * round trip. The header never reaches the queue-service. When Redis cannot record the solution the join is refused
 * (fail closed): a solution that cannot be marked used could be used again. When the event's difficulty cannot be
 * known (no snapshot could be had) the join is refused too, 503 with {@code Retry-After}, rather than let through
 * without the proof the event may ask for; an event the queue-service said it does not know is a 404
 * {@code unknown-event} from the edge, at no call (docs/design/abuse/proof-of-work.md).
 */
@Component
public class ProofOfWorkGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

    private static final Logger log = LoggerFactory.getLogger(ProofOfWorkGatewayFilterFactory.class);

    private final JoinChallenges challenges;

    private final JoinGates gates;

    private final SpentSolutions spent;

    private final ProofOfWorkMeters meters;

    ProofOfWorkGatewayFilterFactory(
            JoinChallenges challenges, JoinGates gates, SpentSolutions spent, ProofOfWorkMeters meters) {
        super(Object.class);
        this.challenges = challenges;
        this.gates = gates;
        this.spent = spent;
        this.meters = meters;
    }

    @Override
    public GatewayFilter apply(Object config) {
        return (exchange, chain) -> {
            String proof = exchange.getRequest().getHeaders().getFirst(Headers.PROOF_OF_WORK);
            ServerWebExchange stripped = proof == null
                    ? exchange
                    : exchange.mutate()
                            .request(request -> request.headers(headers -> headers.remove(Headers.PROOF_OF_WORK)))
                            .build();
            Optional<EventId> event = EventId.parse(
                    ServerWebExchangeUtils.getUriTemplateVariables(exchange).get("eventId"));
            if (event.isEmpty()) {
                return chain.filter(stripped); // refused by the path checks before; the queue-service answers
            }
            return gates.proofOfWorkDifficulty(event.get())
                    .flatMap(gate -> gated(stripped, chain, event.get(), gate, proof));
        };
    }

    private Mono<Void> gated(
            ServerWebExchange exchange, GatewayFilterChain chain, EventId event, JoinGates.Gate gate, String proof) {
        if (gate instanceof JoinGates.Gate.Difficulty difficulty) {
            return difficulty.value() <= 0
                    ? chain.filter(exchange)
                    : check(exchange, chain, event, difficulty.value(), proof);
        }
        if (gate instanceof JoinGates.Gate.UnknownEvent) {
            return ProblemResponses.write(exchange, ProblemType.UNKNOWN_EVENT, "There is no such event.");
        }
        meters.count(Outcome.GATE_UNKNOWN);
        return ProblemResponses.write(
                exchange,
                ProblemType.UNAVAILABLE,
                "Joining is paused for a moment because a system behind the waiting room cannot be reached. "
                        + "Nothing is lost; the page tries again by itself.");
    }

    private Mono<Void> check(
            ServerWebExchange exchange, GatewayFilterChain chain, EventId event, long difficulty, String proof) {
        if (proof == null) {
            meters.count(Outcome.MISSING);
            return refuse(
                    exchange,
                    ProblemType.PROOF_OF_WORK_REQUIRED,
                    "This event asks every browser to solve a small computing challenge before joining. "
                            + "The waiting page does it by itself; the challenge is in 'challenge'.",
                    event,
                    difficulty);
        }
        if (!(challenges.verify(event, proof) instanceof Verification.Solved solved)) {
            meters.count(Outcome.INVALID);
            return refuse(
                    exchange,
                    ProblemType.PROOF_OF_WORK_INVALID,
                    "The solution is not accepted: it is wrong, expired or for another event. "
                            + "A new challenge is in 'challenge'.",
                    event,
                    difficulty);
        }
        return spent.spend(event, solved)
                .map(first -> first ? Spend.FIRST_USE : Spend.USED_BEFORE)
                .onErrorResume(error -> {
                    RequestIdWebFilter.withCorrelation(
                            exchange,
                            () -> log.warn("Join solution for event {} not recorded: {}", event, error.toString()));
                    return Mono.just(Spend.NOT_RECORDED);
                })
                .flatMap(spend -> switch (spend) {
                    case FIRST_USE -> {
                        meters.count(Outcome.ACCEPTED);
                        yield forward(exchange, chain, event, solved);
                    }
                    case USED_BEFORE -> {
                        meters.count(Outcome.REPLAYED);
                        yield refuse(
                                exchange,
                                ProblemType.PROOF_OF_WORK_REPLAYED,
                                "This solution was used already; each join needs a challenge of its own. "
                                        + "A new challenge is in 'challenge'.",
                                event,
                                difficulty);
                    }
                    case NOT_RECORDED -> {
                        meters.count(Outcome.UNAVAILABLE);
                        yield ProblemResponses.write(
                                exchange,
                                ProblemType.UNAVAILABLE,
                                "Joining is paused for a moment because a system behind the waiting room cannot be "
                                        + "reached. Nothing is lost; the page tries again by itself.");
                    }
                });
    }

    /**
     * Forwards the join; a join the queue-service refused without creating anything gives its solution back, before
     * the answer is committed: the page retries the moment it reads the 503, and a give-back still on its way to
     * Redis then found the solution spent (403 proof-of-work-replayed for a join that was never made).
     */
    private Mono<Void> forward(
            ServerWebExchange exchange, GatewayFilterChain chain, EventId event, Verification.Solved solved) {
        exchange.getResponse().beforeCommit(() -> {
            HttpStatusCode status = exchange.getResponse().getStatusCode();
            boolean nothingCreated = status != null
                    && (status.value() == HttpStatus.SERVICE_UNAVAILABLE.value()
                            || status.value() == HttpStatus.TOO_MANY_REQUESTS.value());
            return nothingCreated ? spent.giveBack(event, solved) : Mono.empty();
        });
        return chain.filter(exchange);
    }

    private Mono<Void> refuse(
            ServerWebExchange exchange, ProblemType problem, String detail, EventId event, long difficulty) {
        JoinChallenge challenge = challenges.issue(event, difficulty);
        meters.count(Outcome.ISSUED);
        return ProblemResponses.write(exchange, problem, detail, Map.of("challenge", challenge));
    }

    private enum Spend {
        FIRST_USE,
        USED_BEFORE,
        NOT_RECORDED
    }
}
