package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.tokens.VisitorId;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue #28, findings 2 and 3: each caller only on its own routes. With one shared credential, anything holding it
 * could list the visitor ids at the front ({@code candidates}) and push the event state ({@code mode: BYPASS}); now
 * only the coordinator may, and the gateway (whose {@code X-Waitroom-Visitor} the visitor routes trust) only the
 * visitor routes, the snapshot and liveness. Booking calls the queue-service for nothing, so its credential is unknown
 * here.
 */
@QueueServiceTest
class CallerRoutesTests {

    private static final String BYPASS = "{\"phase\":\"OPEN\",\"mode\":\"BYPASS\",\"saleGeneration\":1,"
            + "\"admissionRatePerSecond\":10,\"offerTtlSeconds\":60}";

    private final QueueClient client;

    String event;

    String visitor;

    CallerRoutesTests(QueueClient client) {
        this.client = client;
    }

    @BeforeEach
    void oneVisitorWaits() {
        event = client.newEvent("callers", "OPEN");
        visitor = VisitorId.random().value();
        assertThat(client.join(event, visitor).status()).isEqualTo(201);
    }

    @Test
    void onlyTheCoordinatorMayPushTheEventState() {
        as(TestSecrets.GATEWAY, "PUT", "/internal/events/" + event, BYPASS).assertProblem(403, "caller-not-allowed");
        as(TestSecrets.BOOKING, "PUT", "/internal/events/" + event, BYPASS)
                .assertProblem(403, "internal-credential-required");
        assertThat(client.internal("GET", "/events/" + event + "/status", null)
                        .json()
                        .path("mode")
                        .asString())
                .isEqualTo("QUEUEING");

        Reply pushed = as(TestSecrets.COORDINATOR, "PUT", "/internal/events/" + event, BYPASS);
        assertThat(pushed.status()).as(pushed.body()).isEqualTo(200);
    }

    @Test
    void onlyTheCoordinatorMayDropAnEvent() {
        String drop = "/internal/events/" + event;
        as(TestSecrets.GATEWAY, "DELETE", drop, null).assertProblem(403, "caller-not-allowed");
        as(TestSecrets.BOOKING, "DELETE", drop, null).assertProblem(403, "internal-credential-required");
        assertThat(client.counts(event).get("waiting").asLong())
                .as("nothing dropped")
                .isEqualTo(1);

        as(TestSecrets.COORDINATOR, "DELETE", drop + "?ifEmpty=true", null).assertProblem(409, "state-conflict");
        assertThat(client.counts(event).get("waiting").asLong())
                .as("a visitor joined: kept")
                .isEqualTo(1);

        Reply dropped = as(TestSecrets.COORDINATOR, "DELETE", drop, null);
        assertThat(dropped.status()).as(dropped.body()).isEqualTo(204);
        as(TestSecrets.COORDINATOR, "GET", drop + "/counts", null).assertProblem(404, "unknown-event");
        assertThat(client.status(event, visitor).status()).isEqualTo(404);
        as(TestSecrets.COORDINATOR, "PUT", drop, BYPASS).assertProblem(409, "phase-conflict");
    }

    @Test
    void onlyTheCoordinatorMayListTheVisitorsAtTheFront() {
        String candidates = "/internal/events/" + event + "/candidates?limit=10";
        as(TestSecrets.GATEWAY, "GET", candidates, null).assertProblem(403, "caller-not-allowed");
        as(TestSecrets.BOOKING, "GET", candidates, null).assertProblem(403, "internal-credential-required");
        for (String path : new String[] {"/offers", "/draw", "/entries/e/transition"}) {
            as(TestSecrets.GATEWAY, "POST", "/internal/events/" + event + path, "{}")
                    .assertProblem(403, "caller-not-allowed");
        }
        as(TestSecrets.GATEWAY, "GET", "/internal/events/" + event + "/counts", null)
                .assertProblem(403, "caller-not-allowed");

        Reply listed = as(TestSecrets.COORDINATOR, "GET", candidates, null);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body()).contains(visitor);
    }

    @Test
    void onlyTheGatewayMaySpeakForAVisitor() {
        String other = VisitorId.random().value();
        Reply joined = client.send(
                "POST",
                "/events/" + event + "/queue",
                null,
                Map.of(Headers.INTERNAL, TestSecrets.COORDINATOR.credential(), Headers.VISITOR, other));
        joined.assertProblem(403, "caller-not-allowed");
        Reply left = client.send(
                "DELETE",
                "/events/" + event + "/queue",
                null,
                Map.of(Headers.INTERNAL, TestSecrets.COORDINATOR.credential(), Headers.VISITOR, visitor));
        left.assertProblem(403, "caller-not-allowed");
        as(TestSecrets.COORDINATOR, "GET", "/internal/events/" + event + "/snapshot", null)
                .assertProblem(403, "caller-not-allowed");
        as(
                        TestSecrets.COORDINATOR,
                        "POST",
                        "/internal/events/" + event + "/joins",
                        "{\"joins\":[{\"visitor\":\"" + other + "\"}]}")
                .assertProblem(403, "caller-not-allowed");

        assertThat(client.counts(event).get("waiting").asLong()).isEqualTo(1);
        JsonNode status = client.status(event, visitor).json();
        assertThat(status.path("state").asString()).isEqualTo("WAITING");
    }

    private Reply as(ServiceCredentials caller, String method, String path, String body) {
        return client.send(method, path, body, Map.of(Headers.INTERNAL, caller.credential()));
    }
}
