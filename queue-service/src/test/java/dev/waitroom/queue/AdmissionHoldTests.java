package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.tokens.VisitorId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Why offers are held back (docs/operating/schedules-and-pauses.md), as the coordinator pushes it: kept with the
 * event, in the visitor's status (no estimate while it stops offers) and the edge snapshot, gone with a push without
 * one; a malformed hold is refused and changes nothing.
 */
@QueueServiceTest
class AdmissionHoldTests {

    private final QueueClient client;

    AdmissionHoldTests(QueueClient client) {
        this.client = client;
    }

    private static final String PAUSED = "\"admissionHold\":{\"cause\":\"SHOP_PAUSED\",\"reason\":null,\"until\":null}";

    private static final String PLANNED = "\"admissionHold\":{\"cause\":\"PLANNED_QUEUE_ALL\","
            + "\"reason\":\"Doors at two | really\",\"until\":\"2030-01-01T14:00:00Z\"}";

    @Test
    void aPushedHoldReachesTheStatusAndTheSnapshotAndLeavesWithTheNextPush() {
        QueueClient client = this.client;
        String event = QueueClient.newEventId("hold");
        assertThat(client.putEvent(event, "OPEN", PLANNED).status()).isEqualTo(200);
        String visitor = VisitorId.random().value();
        assertThat(client.join(event, visitor).status()).isEqualTo(201);

        JsonNode status = client.status(event, visitor).json();
        assertThat(status.at("/admissionHold/cause").asString()).isEqualTo("PLANNED_QUEUE_ALL");
        assertThat(status.at("/admissionHold/reason").asString()).isEqualTo("Doors at two | really");
        assertThat(status.at("/admissionHold/until").asString()).isEqualTo("2030-01-01T14:00:00Z");
        assertThat(status.get("estimatedWaitSeconds").isNull()).isTrue();
        JsonNode snapshot = snapshot(client, event);
        assertThat(snapshot.at("/admissionHold/cause").asString()).isEqualTo("PLANNED_QUEUE_ALL");

        assertThat(client.putEvent(event, "OPEN", PAUSED).status()).isEqualTo(200);
        assertThat(client.status(event, visitor)
                        .json()
                        .at("/admissionHold/cause")
                        .asString())
                .isEqualTo("SHOP_PAUSED");

        assertThat(client.putEvent(event, "OPEN", null).status()).isEqualTo(200);
        assertThat(client.status(event, visitor).json().get("admissionHold").isNull())
                .isTrue();
        assertThat(snapshot(client, event).get("admissionHold").isNull()).isTrue();
    }

    @Test
    void aMalformedHoldIsRefusedAndTheStoredOneKept() {
        QueueClient client = this.client;
        String event = QueueClient.newEventId("hold");
        assertThat(client.putEvent(event, "OPEN", PAUSED).status()).isEqualTo(200);
        client.putEvent(event, "OPEN", "\"admissionHold\":{\"cause\":\"SHOP_ON_FIRE\"}")
                .assertProblem(400, "malformed-request");
        client.putEvent(
                        event,
                        "OPEN",
                        "\"admissionHold\":{\"cause\":\"PLANNED_PAUSE\",\"reason\":\"" + "x".repeat(201) + "\"}")
                .assertProblem(400, "malformed-request");
        assertThat(snapshot(client, event).at("/admissionHold/cause").asString())
                .isEqualTo("SHOP_PAUSED");
    }

    private static JsonNode snapshot(QueueClient client, String event) {
        Reply r = client.internal("GET", "/internal/events/" + event + "/snapshot", null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }
}
