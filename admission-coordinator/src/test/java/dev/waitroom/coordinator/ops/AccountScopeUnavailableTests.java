package dev.waitroom.coordinator.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Issue 18 part 2, over real HTTP and PostgreSQL, in a coordinator with no identity provider ({@code
 * waitroom.accounts.issuer} empty, as a deployment without {@code WAITROOM_ACCOUNTS_ISSUER}): creating an
 * ACCOUNT-scoped event, or changing an event to ACCOUNT scope, is 422 {@code account-scope-unavailable} and stores
 * nothing; BROWSER-scoped events are made as before. With a provider (the shared test context) the same creation
 * succeeds: {@link AccountScopeAvailableTests}.
 */
@CoordinatorTest
@TestPropertySource(properties = "waitroom.accounts.issuer=")
class AccountScopeUnavailableTests {

    @Autowired
    Scenario scenario;

    @AfterEach
    void queueBackUp() {
        this.scenario.queue.unavailable(false);
    }

    @Test
    void creatingAnAccountScopedEventWithoutAProviderIsRefusedAndStoresNothing() {
        String id = Scenario.eventId("acct");
        Http.Response refused = this.scenario.ops().post("/admin/events", Http.json(body(id, "ACCOUNT")));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().get("type").asString()).endsWith("/account-scope-unavailable");
        assertThat(refused.json().get("detail").asString()).contains("WAITROOM_ACCOUNTS_ISSUER");
        assertThat(this.scenario.ops().get("/admin/events/" + id).status()).isEqualTo(404);
    }

    @Test
    void changingAnEventToAccountScopeWithoutAProviderIsRefusedAndChangesNothing() {
        // the queue does not take the first push, so the rules are not frozen yet and only the provider is missing
        this.scenario.queue.unavailable(true);
        String id = Scenario.eventId("acct");
        Http.Response created = this.scenario.ops().post("/admin/events", Http.json(body(id, "BROWSER")));
        assertThat(created.status()).as(created.body()).isEqualTo(201);

        Http.Response refused = this.scenario
                .ops()
                .send("PATCH", "/admin/events/" + id, Http.json(Map.of("identityScope", "ACCOUNT", "name", "Renamed")));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().get("type").asString()).endsWith("/account-scope-unavailable");
        var stored = this.scenario.ops().get("/admin/events/" + id).json();
        assertThat(stored.path("identityScope").asString()).isEqualTo("BROWSER");
        assertThat(stored.path("name").asString())
                .as("nothing of the PATCH applied")
                .isEqualTo("Scope");
    }

    @Test
    void browserScopedEventsAreCreatedAsBefore() {
        String id = Scenario.eventId("acct");
        Http.Response created = this.scenario.ops().post("/admin/events", Http.json(body(id, "BROWSER")));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    static Map<String, Object> body(String id, String scope) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", id);
        body.put("name", "Scope");
        body.put("maxActiveSessions", 4);
        body.put("maxAdmissionsPerSecond", 10);
        body.put("identityScope", scope);
        return body;
    }
}
