package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.tokens.VisitorId;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Every bad input gets its problem+json answer and changes nothing. */
@QueueServiceTest
class BadInputTests {

    private final QueueClient client;

    @LocalManagementPort
    int managementPort;

    String event;
    String member;
    String memberEntry;

    BadInputTests(QueueClient client) {
        this.client = client;
    }

    @BeforeEach
    void joinOneMember() {
        event = client.newEvent("bad-input", "OPEN");
        member = VisitorId.random().value();
        memberEntry = client.join(event, member).receipt();
    }

    @Test
    void callsWithoutTheInternalCredentialAreForbidden() {
        String visitor = VisitorId.random().value();
        assertUnchanged(
                () -> client.send("POST", "/events/" + event + "/queue", null, Map.of(Headers.VISITOR, visitor)),
                403,
                "internal-credential-required");
        assertUnchanged(
                () -> client.send(
                        "POST",
                        "/events/" + event + "/queue",
                        null,
                        Map.of(Headers.VISITOR, visitor, Headers.INTERNAL, "guess")),
                403,
                "internal-credential-required");
        assertUnchanged(
                () -> client.send("GET", "/internal/events/" + event + "/counts", null, Map.of()),
                403,
                "internal-credential-required");
        assertUnchanged(
                () -> client.send(
                        "PUT",
                        "/internal/events/" + event,
                        "{\"phase\":\"ENDED\"}",
                        Map.of(Headers.INTERNAL, TestSecrets.COORDINATOR.credential() + "x")),
                403,
                "internal-credential-required");
        // health answers without a credential, on the management port (the service port has no /actuator)
        assertThat(new QueueClient(managementPort)
                        .send("GET", "/actuator/health", null, Map.of())
                        .status())
                .isEqualTo(200);
        assertThat(client.send("GET", "/actuator/health", null, Map.of()).status())
                .isNotEqualTo(200);
    }

    @Test
    void aMissingOrMalformedVisitorIdIsRefused() {
        assertUnchanged(() -> client.internal("POST", "/events/" + event + "/queue", null), 400, "visitor-required");
        for (String bad : new String[] {"short", "AAAAAAAAAAAAAAAAAAAAA!", "AAAAAAAAAAAAAAAAAAAAAB", "A".repeat(23)}) {
            assertUnchanged(() -> client.join(event, bad), 400, "malformed-request");
            assertUnchanged(() -> client.status(event, bad), 400, "malformed-request");
            assertUnchanged(() -> client.leave(event, bad), 400, "malformed-request");
        }
    }

    @Test
    void malformedOrUnknownEventsAreRefused() {
        String visitor = VisitorId.random().value();
        for (String bad : new String[] {"bad%7Bid%7D", "x".repeat(65), "a:b", "-lead"}) {
            assertUnchanged(() -> client.join(bad, visitor), 400, "invalid-event-id");
        }
        String unknown = QueueClient.newEventId("never-created");
        assertUnchanged(() -> client.join(unknown, visitor), 404, "unknown-event");
        assertUnchanged(() -> client.status(unknown, visitor), 404, "unknown-event");
        assertUnchanged(() -> client.leave(unknown, visitor), 404, "unknown-event");
        assertUnchanged(() -> client.internal("GET", "/events/" + unknown + "/status", null), 404, "unknown-event");
        assertUnchanged(
                () -> client.internal("GET", "/internal/events/" + unknown + "/snapshot", null), 404, "unknown-event");
        assertUnchanged(
                () -> client.internal("GET", "/internal/events/" + unknown + "/counts", null), 404, "unknown-event");
        assertUnchanged(
                () -> client.internal("GET", "/internal/events/" + unknown + "/candidates", null),
                404,
                "unknown-event");
        assertUnchanged(() -> client.draw(unknown, "00".repeat(32)), 404, "unknown-event");
    }

    @Test
    void malformedAndOversizedBodiesAreRefused() {
        String visitor = VisitorId.random().value();
        assertUnchanged(
                () -> client.asVisitor("POST", "/events/" + event + "/queue", visitor, "{not json"),
                400,
                "malformed-request");
        assertUnchanged(
                () -> client.asVisitor("POST", "/events/" + event + "/queue", visitor, "[1,2]"),
                400,
                "malformed-request");
        assertUnchanged(
                () -> client.asVisitor(
                        "POST", "/events/" + event + "/queue", visitor, "{\"pad\":\"" + "x".repeat(20_000) + "\"}"),
                413,
                "body-too-large");
        assertUnchanged(
                () -> client.internal("PUT", "/internal/events/" + event, "{\"phase\":\"LATER\"}"),
                400,
                "malformed-request");
        assertUnchanged(
                () -> client.internal("PUT", "/internal/events/" + event, "{\"mode\":\"PAUSED\"}"),
                400,
                "malformed-request");
        assertUnchanged(
                () -> client.internal("PUT", "/internal/events/" + event, "{\"phase\":"), 400, "malformed-request");
        assertUnchanged(
                () -> client.internal(
                        "PUT", "/internal/events/" + event, "{\"phase\":\"OPEN\",\"opensAt\":\"yesterday\"}"),
                400,
                "malformed-request");
        assertUnchanged(
                () -> client.internal(
                        "PUT", "/internal/events/" + event, "{\"phase\":\"OPEN\",\"admissionRatePerSecond\":-1}"),
                400,
                "malformed-request");
    }

    @Test
    void aVisitorWithoutAnEntryHasNoStatus() {
        String stranger = VisitorId.random().value();
        assertUnchanged(() -> client.status(event, stranger), 404, "not-in-queue");
        assertUnchanged(() -> client.leave(event, stranger), 404, "not-in-queue");
    }

    @Test
    void endedAndSoldOutEventsSaySoAndKeepExistingEntries() {
        client.internal(
                "PUT",
                "/internal/events/" + event,
                "{\"phase\":\"OPEN\",\"mode\":\"SOLD_OUT\",\"saleGeneration\":1,\"announcement\":\"All tickets sold\"}");
        assertUnchanged(() -> client.join(event, VisitorId.random().value()), 409, "sold-out");
        Reply existing = client.join(event, member);
        assertThat(existing.status()).isEqualTo(200);
        assertThat(existing.json().get("mode").asString()).isEqualTo("SOLD_OUT");
        assertThat(existing.json().get("announcement").asString()).isEqualTo("All tickets sold");
        assertThat(existing.json().get("estimatedWaitSeconds").isNull()).isTrue();

        client.internal(
                "PUT", "/internal/events/" + event, "{\"phase\":\"ENDED\",\"mode\":\"SOLD_OUT\",\"saleGeneration\":1}");
        assertUnchanged(() -> client.join(event, VisitorId.random().value()), 410, "event-ended");
        assertUnchanged(
                () -> client.internal("PUT", "/internal/events/" + event, "{\"phase\":\"OPEN\",\"saleGeneration\":1}"),
                409,
                "phase-conflict");
    }

    @Test
    void staleGenerationsAndBadInternalCallsChangeNothing() {
        client.internal("PUT", "/internal/events/" + event, "{\"phase\":\"OPEN\",\"saleGeneration\":5}");
        assertUnchanged(
                () -> client.internal(
                        "PUT",
                        "/internal/events/" + event,
                        "{\"phase\":\"OPEN\",\"mode\":\"PAUSED\",\"saleGeneration\":4}"),
                409,
                "stale-generation");
        assertThat(client.internal("GET", "/events/" + event + "/status", null)
                        .json()
                        .get("mode")
                        .asString())
                .isEqualTo("QUEUEING");

        for (String limit : new String[] {"0", "100000", "abc"}) {
            assertUnchanged(
                    () -> client.internal("GET", "/internal/events/" + event + "/candidates?limit=" + limit, null),
                    400,
                    "malformed-request");
        }
        String offers = "/internal/events/" + event + "/offers";
        assertUnchanged(() -> client.internal("POST", offers, "{\"offers\":[]}"), 400, "malformed-request");
        assertUnchanged(
                () -> client.internal(
                        "POST",
                        offers,
                        "{\"offers\":[{\"entryId\":\"" + memberEntry
                                + "\",\"grantId\":\"g|1\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}]}"),
                400,
                "malformed-request");
        assertUnchanged(
                () -> client.internal(
                        "POST",
                        offers,
                        "{\"offers\":[{\"entryId\":\"NOPE\",\"grantId\":\"g1\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}]}"),
                400,
                "malformed-request");
        assertUnchanged(
                () -> client.internal(
                        "POST",
                        offers,
                        "{\"offers\":[{\"entryId\":\"" + memberEntry
                                + "\",\"grantId\":\"g1\",\"expiresAt\":\"2030-01-01T00:00:00Z\"},{\"entryId\":\""
                                + memberEntry
                                + "\",\"grantId\":\"g2\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}]}"),
                400,
                "malformed-request");
        assertUnchanged(
                () -> client.internal(
                        "POST", offers, "{\"offers\":[{\"entryId\":\"" + memberEntry + "\",\"grantId\":\"g1\"}]}"),
                400,
                "malformed-request");

        String transition = "/internal/events/" + event + "/entries/" + memberEntry + "/transition";
        assertUnchanged(
                () -> client.internal("POST", transition, "{\"to\":\"WAITING\",\"grantId\":\"g1\"}"),
                400,
                "malformed-request");
        assertUnchanged(() -> client.internal("POST", transition, "{\"to\":\"ACTIVE\"}"), 400, "malformed-request");
        assertUnchanged(
                () -> client.internal("POST", transition, "{\"to\":\"ACTIVE\",\"grantId\":\"g1\"}"),
                409,
                "grant-mismatch");
        assertUnchanged(
                () -> client.internal(
                        "POST",
                        "/internal/events/" + event + "/entries/zzzzz/transition",
                        "{\"to\":\"ACTIVE\",\"grantId\":\"g1\"}"),
                404,
                "unknown-entry");
        assertUnchanged(
                () -> client.internal(
                        "POST",
                        "/internal/events/" + event + "/entries/0/transition",
                        "{\"to\":\"ACTIVE\",\"grantId\":\"g1\"}"),
                400,
                "malformed-request");
    }

    /** The counters, less the oldest wait, which grows with the clock. */
    private JsonNode countsWithoutClock() {
        ObjectNode counts = (ObjectNode) client.counts(event);
        counts.remove("oldestWaitSeconds");
        return counts;
    }

    /** Runs the call, checks its problem, and checks that the event's counters and the member's entry did not move. */
    private void assertUnchanged(Supplier<Reply> call, int status, String type) {
        JsonNode before = countsWithoutClock();
        Reply memberBefore = client.status(event, member);
        Reply reply = call.get();
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        assertThat(reply.json().get("type").asString()).isEqualTo("https://waitroom.dev/problems/" + type);
        assertThat(reply.json().get("status").asInt()).isEqualTo(status);
        JsonNode after = countsWithoutClock();
        assertThat(after).isEqualTo(before);
        Reply memberAfter = client.status(event, member);
        assertThat(memberAfter.json()).isEqualTo(memberBefore.json());
        assertThat(memberAfter.ticket().orderKey())
                .isEqualTo(memberBefore.ticket().orderKey());
    }
}
