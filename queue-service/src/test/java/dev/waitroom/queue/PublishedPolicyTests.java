package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.tokens.VisitorId;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What the page publishes about an event (issue 17, items 1 and 5; docs/design/sale-rules/rejoin-and-published-policy.md):
 * the coordinator's push stores the name, the after-purchase rule and the sold-out seat categories; the stored state,
 * the public event status (with the whole policy and the sale generation) and the edge snapshot answer them.
 */
@QueueServiceTest
class PublishedPolicyTests {

    private final QueueClient client;

    PublishedPolicyTests(QueueClient client) {
        this.client = client;
    }

    private Reply push(String event, String body) {
        return client.internal("PUT", "/internal/events/" + event, body);
    }

    private JsonNode publicStatus(String event) {
        Reply r = client.internal("GET", "/events/" + event + "/status", null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Cache-Control")).contains("max-age=1").contains("public");
        return r.json();
    }

    private JsonNode snapshot(String event) {
        return client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                .json();
    }

    @Test
    void theNamePolicyGenerationAndSoldOutCategoriesArePublished() {
        String event = QueueClient.newEventId("published");
        Reply put = push(
                event,
                "{\"phase\":\"OPEN\",\"mode\":\"QUEUEING\",\"saleGeneration\":3,\"name\":\"  Spring Tour — Oslo  \","
                        + "\"presaleOrdering\":\"FIFO\",\"expiredOfferPolicy\":\"DROP\",\"afterPurchase\":\"KEEP\","
                        + "\"identityScope\":\"ACCOUNT\",\"opensAt\":\"2030-05-01T10:00:00Z\","
                        + "\"soldOutCategories\":[\"Floor\",\"Balcony 2\",\"Floor\"]}");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        JsonNode state = put.json();
        assertThat(state.get("name").asString()).as("one line, trimmed").isEqualTo("Spring Tour — Oslo");
        assertThat(state.get("afterPurchase").asString()).isEqualTo("KEEP");
        assertThat(names(state.get("soldOutCategories"))).containsExactly("Floor", "Balcony 2");
        for (int i = 0; i < 3; i++) {
            // an ACCOUNT-scoped event places only visitors with an account (sign-in-required otherwise)
            Reply joined = client.send(
                    "POST",
                    "/events/" + event + "/queue",
                    null,
                    java.util.Map.of(
                            dev.waitroom.contract.Headers.INTERNAL,
                            TestSecrets.GATEWAY.credential(),
                            dev.waitroom.contract.Headers.VISITOR,
                            VisitorId.random().value(),
                            dev.waitroom.contract.Headers.ACCOUNT,
                            "account-" + i));
            assertThat(joined.status()).as(joined.body()).isEqualTo(201);
        }

        JsonNode status = publicStatus(event);
        assertThat(status.get("name").asString()).isEqualTo("Spring Tour — Oslo");
        JsonNode policy = status.get("policy");
        assertThat(policy.get("presaleOrdering").asString()).isEqualTo("FIFO");
        assertThat(policy.get("expiredOfferPolicy").asString()).isEqualTo("DROP");
        assertThat(policy.get("afterPurchase").asString()).isEqualTo("KEEP");
        assertThat(policy.get("identityScope").asString()).isEqualTo("ACCOUNT");
        assertThat(status.get("opensAt").asString()).isEqualTo("2030-05-01T10:00:00Z");
        assertThat(status.get("saleGeneration").asLong()).isEqualTo(3);
        assertThat(names(status.get("soldOutCategories"))).containsExactly("Floor", "Balcony 2");
        assertThat(status.get("queueLength").get("min").asLong()).isEqualTo(3);
        assertThat(status.toString()).doesNotContain("visitor").doesNotContain("entry");

        JsonNode snapshot = snapshot(event);
        assertThat(names(snapshot.get("soldOutCategories"))).containsExactly("Floor", "Balcony 2");
        assertThat(snapshot.get("saleGeneration").asLong()).isEqualTo(3);
    }

    @Test
    void eachPushCarriesTheWholeStateSoWhatItOmitsIsTheDefault() {
        String event = QueueClient.newEventId("published-reset");
        push(
                event,
                "{\"phase\":\"OPEN\",\"saleGeneration\":1,\"name\":\"Gala\",\"afterPurchase\":\"KEEP\","
                        + "\"soldOutCategories\":[\"Stalls\"]}");
        assertThat(publicStatus(event).get("name").asString()).isEqualTo("Gala");

        // categories come back on sale (a new round) and the push names none
        Reply put = push(event, "{\"phase\":\"OPEN\",\"saleGeneration\":2}");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        JsonNode status = publicStatus(event);
        assertThat(status.get("name").isNull()).isTrue();
        assertThat(status.get("policy").get("afterPurchase").asString()).isEqualTo("RELEASE");
        assertThat(status.get("policy").get("expiredOfferPolicy").asString()).isEqualTo("REQUEUE_ONCE");
        assertThat(status.get("saleGeneration").asLong()).isEqualTo(2);
        assertThat(status.get("soldOutCategories")).isEmpty();
        assertThat(snapshot(event).get("soldOutCategories")).isEmpty();
    }

    @Test
    void aNameOrCategoryThePageCouldNotShowIsRefusedAndNothingIsStored() {
        String event = QueueClient.newEventId("published-bad");
        push(event, "{\"phase\":\"OPEN\",\"saleGeneration\":1,\"name\":\"Before\"}");
        for (String bad : List.of(
                "\"name\":\"two\\nlines\"",
                "\"name\":\"" + "x".repeat(201) + "\"",
                "\"name\":\"mirror\\u202Eeman\"",
                "\"soldOutCategories\":[\"a,b\"]",
                "\"soldOutCategories\":[\"\"]",
                "\"soldOutCategories\":[null]",
                "\"afterPurchase\":\"SOMETIMES\"")) {
            Reply r = push(event, "{\"phase\":\"OPEN\",\"saleGeneration\":1," + bad + "}");
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.json().get("type").asString()).as(bad).endsWith("/malformed-request");
        }
        assertThat(publicStatus(event).get("name").asString()).isEqualTo("Before");
    }

    private static List<String> names(JsonNode array) {
        return array.valueStream().map(JsonNode::asString).toList();
    }
}
