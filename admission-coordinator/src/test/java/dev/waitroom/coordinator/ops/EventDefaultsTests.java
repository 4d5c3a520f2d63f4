package dev.waitroom.coordinator.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Every event field but the id and the name has a default (docs/operating/schedules-and-pauses.md#defaults). */
@CoordinatorTest
class EventDefaultsTests {

    @Autowired
    Scenario scenario;

    @Test
    void anIdAndANameAloneCreateAnEventWithTheDocumentedDefaults() {
        String id = Scenario.eventId("defaults");
        Http.Response created =
                this.scenario.ops().post("/admin/events", Http.json(Map.of("eventId", id, "name", "Just a name")));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode e = created.json();
        assertThat(e.path("maxActiveSessions").asInt()).isEqualTo(1000);
        assertThat(e.path("maxAdmissionsPerSecond").asDouble()).isEqualTo(10.0);
        assertThat(e.path("batchMax").asInt()).isEqualTo(10);
        assertThat(e.path("offerTtlSeconds").asLong()).isEqualTo(60);
        assertThat(e.path("sessionTtlSeconds").asLong()).isEqualTo(600);
        assertThat(e.path("sessionMaxSeconds").asLong()).isEqualTo(1800);
        assertThat(e.path("presaleOrdering").asString()).isEqualTo("RANDOM");
        assertThat(e.path("identityScope").asString()).isEqualTo("BROWSER");
        assertThat(e.path("expiredOfferPolicy").asString()).isEqualTo("REQUEUE_ONCE");
        assertThat(e.path("afterPurchase").asString()).isEqualTo("RELEASE");
        assertThat(e.path("opensAt").isNull()).isTrue();
        assertThat(e.path("phase").asString()).isEqualTo("SCHEDULED");
    }

    @Test
    void withoutANameNothingIsCreated() {
        String id = Scenario.eventId("defaults");
        Http.Response refused = this.scenario.ops().post("/admin/events", Http.json(Map.of("eventId", id)));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.problemType()).endsWith("invalid-event-config");
        assertThat(this.scenario.ops().get("/admin/events/" + id).status()).isEqualTo(404);
    }
}
