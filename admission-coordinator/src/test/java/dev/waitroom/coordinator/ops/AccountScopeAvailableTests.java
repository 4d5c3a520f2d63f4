package dev.waitroom.coordinator.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * With an identity provider configured ({@code waitroom.accounts.issuer}, set in the shared test context) an
 * ACCOUNT-scoped event is created and its scope reaches the queue; without one it is refused
 * ({@link AccountScopeUnavailableTests}).
 */
@CoordinatorTest
class AccountScopeAvailableTests {

    @Autowired
    Scenario scenario;

    @Test
    void withAProviderAnAccountScopedEventIsCreatedAndPushed() {
        String id = Scenario.eventId("acct");
        Http.Response created =
                this.scenario.ops().post("/admin/events", Http.json(AccountScopeUnavailableTests.body(id, "ACCOUNT")));

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("identityScope").asString()).isEqualTo("ACCOUNT");
        assertThat(this.scenario.queue.lastState(id).identityScope()).isEqualTo("ACCOUNT");
    }
}
