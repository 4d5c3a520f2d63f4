package dev.waitroom.coordinator.ops;

import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * An ACCOUNT-scoped event places visitors by the account the gateway verified with the identity provider
 * (docs/integration/accounts.md). Without a provider no visitor could ever join one, so creating one, or changing an event to
 * one, is refused: 422 {@code account-scope-unavailable}. The coordinator knows a provider is configured from the same
 * setting the gateway verifies tokens with, {@code waitroom.accounts.issuer} ({@code WAITROOM_ACCOUNTS_ISSUER}), which
 * the launcher, compose and Kubernetes give both. An event that already is ACCOUNT-scoped keeps its scope and can still
 * be changed otherwise (its visitors are refused at the door until the provider is back).
 */
@Component
class AccountScopeGuard {

    private final boolean providerConfigured;

    AccountScopeGuard(@Value("${waitroom.accounts.issuer:}") String issuer) {
        this.providerConfigured = !issuer.isBlank();
    }

    /** Refuses {@code next} when it makes an event ACCOUNT-scoped ({@code current} null: a new event) with no provider. */
    void check(IdentityScope current, IdentityScope next) {
        if (next == IdentityScope.ACCOUNT && current != IdentityScope.ACCOUNT && !providerConfigured) {
            throw new CoordinatorException(
                    ProblemType.ACCOUNT_SCOPE_UNAVAILABLE,
                    "identityScope ACCOUNT needs an identity provider, and none is configured"
                            + " (WAITROOM_ACCOUNTS_ISSUER, docs/integration/accounts.md); use BROWSER or configure one.");
        }
    }
}
