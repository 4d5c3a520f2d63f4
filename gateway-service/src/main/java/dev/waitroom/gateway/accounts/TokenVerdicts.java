package dev.waitroom.gateway.accounts;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.correlation.RequestIdWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * What a token's verification leads to besides the forward: counted by outcome ({@code
 * waitroom.gateway.accounts.tokens}), logged under the request's correlation, and for a bearer token that proves
 * nothing the answer itself: 401 {@code account-token-invalid} (with the sign-in URL when configured), or 503 {@code
 * unavailable} while the provider's keys cannot be read (fail closed).
 */
final class TokenVerdicts {

    private static final Logger log = LoggerFactory.getLogger(TokenVerdicts.class);

    private final Map<String, Object> signIn;

    private final Counter verified;

    private final Counter invalid;

    private final Counter unavailable;

    TokenVerdicts(AccountsProperties properties, MeterRegistry meters) {
        this.signIn = properties.signInUrl() == null ? Map.of() : Map.of("signInUrl", properties.signInUrl());
        this.verified = counter(meters, "verified");
        this.invalid = counter(meters, "invalid");
        this.unavailable = counter(meters, "unavailable");
    }

    private static Counter counter(MeterRegistry meters, String outcome) {
        return Counter.builder("waitroom.gateway.accounts.tokens")
                .tag("outcome", outcome)
                .description("Sign-in tokens on visitor routes, by outcome")
                .register(meters);
    }

    void verified() {
        verified.increment();
    }

    /** A cookie's token not accepted: counted and logged; the queue-service answers it (docs/integration/accounts.md). */
    void ambient(ServerWebExchange exchange, AccountTokens.Verification verification) {
        RequestIdWebFilter.withCorrelation(exchange, () -> {
            if (verification instanceof AccountTokens.Invalid bad) {
                invalid.increment();
                log.debug("sign-in cookie not accepted: {}", bad.reason());
            } else if (verification instanceof AccountTokens.Unavailable down) {
                unavailable.increment();
                log.warn("sign-in cookie not checked: the identity provider's keys cannot be read ({})", down.reason());
            }
        });
    }

    /** A bearer token not accepted: answered here, never passed on as anonymous. */
    Mono<Void> refuse(ServerWebExchange exchange, AccountTokens.Verification verification) {
        if (verification instanceof AccountTokens.Invalid bad) {
            invalid.increment();
            RequestIdWebFilter.withCorrelation(exchange, () -> log.debug("sign-in token refused: {}", bad.reason()));
            exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"");
            return ProblemResponses.write(
                    exchange,
                    ProblemType.ACCOUNT_TOKEN_INVALID,
                    "The sign-in token was not accepted (expired, for another site, or not signed by the identity"
                            + " provider). Sign in again.",
                    signIn);
        }
        unavailable.increment();
        RequestIdWebFilter.withCorrelation(
                exchange,
                () -> log.warn(
                        "sign-in token not checked: the identity provider's keys cannot be read ({})",
                        ((AccountTokens.Unavailable) verification).reason()));
        return ProblemResponses.write(
                exchange,
                ProblemType.UNAVAILABLE,
                "The sign-in cannot be checked right now; nothing was changed. Try again in a few seconds.");
    }
}
