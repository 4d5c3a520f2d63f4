package dev.waitroom.queue.visitor;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import dev.waitroom.queue.web.RetryLaterException;
import dev.waitroom.web.ProblemException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * An ACCOUNT-scoped event keys its entries on the account the gateway verified ({@code X-Waitroom-Account}, docs/
 * accounts.md), so a join, status or leave that comes without one is refused: 401 {@code sign-in-required}, with the
 * operator's {@code signInUrl} when configured ({@code waitroom.accounts.sign-in-url}, the same setting as the
 * gateway's). Never a silent place keyed on the browser: it could not follow the person to another browser, and the
 * same person signing in later would get a second place.
 *
 * <p>The scope is one of the sale's published rules, frozen before the queue-service first holds the event
 * (docs/design/sale-rules/frozen-rules-and-categories.md), so it is read from Redis once per event and kept for a minute:
 * joins without an account (every join of a BROWSER-scoped event) cost no extra Redis call per request.
 */
@Component
class SignInRequirement {

    /** As the gateway asks when it cannot check a token itself. */
    private static final Duration UNAVAILABLE_RETRY = Duration.ofSeconds(5);

    private final QueueScripts scripts;

    private final LuaScript scope;

    private final Map<String, Object> signIn;

    private final Cache<EventId, IdentityScope> scopes = Caffeine.newBuilder()
            .maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(1))
            .build();

    SignInRequirement(QueueScripts scripts, @Value("${waitroom.accounts.sign-in-url:}") String signInUrl) {
        this.scripts = scripts;
        this.scope = scripts.load("identity_scope", LuaScript.Kind.GIVEN_KEYS);
        // of the gateway's waitroom.accounts.* settings the queue-service reads only this one
        this.signIn = signInUrl.isBlank()
                ? Map.of()
                : Map.of("signInUrl", URI.create(signInUrl.trim()).toString());
    }

    /**
     * Refuses a visitor without an account on an ACCOUNT-scoped event; an unknown event is left to the route. {@code
     * accountProblem}: the gateway's verdict on a sign-in cookie that gave no account ({@code invalid}, {@code
     * unavailable}; {@code X-Waitroom-Account-Problem}), answered here because only an ACCOUNT-scoped event needs it.
     */
    void check(EventId event, Visitor who, String accountProblem) {
        if (who.account() != null || scopeOf(event) != IdentityScope.ACCOUNT) {
            return;
        }
        if ("unavailable".equals(accountProblem)) {
            throw new RetryLaterException(
                    ProblemType.UNAVAILABLE,
                    "The sign-in cannot be checked right now; nothing was changed. Try again in a few seconds.",
                    UNAVAILABLE_RETRY);
        }
        if ("invalid".equals(accountProblem)) {
            throw new ProblemException(
                    ProblemType.ACCOUNT_TOKEN_INVALID,
                    "The sign-in was not accepted (expired, for another site, or not signed by the identity provider)."
                            + " Sign in again.",
                    signIn);
        }
        throw new ProblemException(
                ProblemType.SIGN_IN_REQUIRED,
                "This sale keeps one place per account: sign in to join or to see your place.",
                signIn);
    }

    /** The event keys its entries on the account (false for an unknown event). */
    boolean accountScoped(EventId event) {
        return scopeOf(event) == IdentityScope.ACCOUNT;
    }

    private IdentityScope scopeOf(EventId event) {
        IdentityScope known = scopes.getIfPresent(event);
        if (known != null) {
            return known;
        }
        EventKeys k = EventKeys.of(event);
        List<String> r = scripts.run(scope, k.event(), List.of(k.event()));
        if (r.isEmpty() || !r.get(0).equals("OK")) {
            return null;
        }
        IdentityScope read = IdentityScope.valueOf(r.get(1));
        scopes.put(event, read);
        return read;
    }
}
