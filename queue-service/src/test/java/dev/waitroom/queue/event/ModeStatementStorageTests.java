package dev.waitroom.queue.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.queue.QueueServiceTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The coordinator's signed mode (issue #28, finding 2) passes through this service opaque: stored as pushed, returned
 * in the gateway's snapshot, gone when a push carries none; this service cannot sign one, so it never needs to read it.
 * Only its shape is checked, against a real Redis.
 */
@QueueServiceTest
class ModeStatementStorageTests {

    /** The shape of a compact JWS; its signature is the gateway's to check. */
    private static final String STATEMENT = "eyJhbGciOiJFZERTQSJ9.eyJtb2RlIjoiQllQQVNTIn0.c2lnbmF0dXJl";

    private final QueueClient client;

    ModeStatementStorageTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void theStatementIsStoredAsPushedAndReturnedInTheSnapshotUntilAPushWithoutOne() {
        String event = QueueClient.newEventId("signed");
        assertThat(push(event, ",\"modeStatement\":\"" + STATEMENT + "\"").status())
                .isEqualTo(200);

        JsonNode snapshot = snapshot(event);
        assertThat(snapshot.get("mode").asString()).isEqualTo("BYPASS");
        assertThat(snapshot.get("modeStatement").asString()).isEqualTo(STATEMENT);

        push(event, "");
        assertThat(snapshot(event).get("modeStatement").isNull())
                .as("a push without a statement leaves none behind: an old one is not kept")
                .isTrue();
    }

    @Test
    void aStatementThatIsNoCompactJwsIsAMalformedRequest() {
        String event = QueueClient.newEventId("signed");
        for (String bad : new String[] {"not-a-jws", "a.b", "a.b.c.d", "a.b.c d", "a." + "b".repeat(1100) + ".c"}) {
            Reply reply = push(event, ",\"modeStatement\":\"" + bad + "\"");
            assertThat(reply.status()).as(bad).isEqualTo(400);
            assertThat(reply.json().get("type").asString()).endsWith("/malformed-request");
        }
    }

    private Reply push(String event, String extra) {
        return client.internal(
                "PUT",
                "/internal/events/" + event,
                "{\"phase\":\"OPEN\",\"mode\":\"BYPASS\",\"saleGeneration\":1" + extra + "}");
    }

    private JsonNode snapshot(String event) {
        return client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                .json();
    }
}
