package dev.waitroom.queue.visitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.JoinBatch;
import dev.waitroom.contract.queue.JoinResult;
import dev.waitroom.contract.queue.JoinResults;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.queue.QueueClient;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.queue.QueueServiceTest;
import dev.waitroom.queue.TestSecrets;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The gateway's batched joins against the real service and Redis: one call makes the joins in the order given, each
 * answered as it would have been alone, its own problem included, and a repeated batch makes nothing twice.
 */
@QueueServiceTest
class JoinBatchTests {

    private static final QueueTicketCodec TICKETS = TestSecrets.ticketCodec();

    private final QueueClient client;

    JoinBatchTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void joinsOfABatchTakeTheirPlacesInTheBatchOrderEachWithItsOwnAnswer() {
        String event = client.newEvent("batch-order", "OPEN");
        List<JoinBatch.Join> joins = IntStream.range(0, 150)
                .mapToObj(i -> new JoinBatch.Join(VisitorId.random().value(), null, null, i % 2 == 0 ? "{}" : null))
                .toList();
        List<JoinResult> results = batch(event, joins);

        assertThat(results).hasSize(150);
        assertThat(results.stream().map(r -> TICKETS.decode(r.ticket()).orderKey()))
                .as("the batch's places, in its order")
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, 150).boxed().toList());
        for (int i = 0; i < 150; i++) {
            JoinResult r = results.get(i);
            assertThat(r.status()).as(r.body()).isEqualTo(201);
            assertThat(TICKETS.decode(r.ticket()).orderKey())
                    .as("join %d of the batch is the %dth in the queue", i, i + 1)
                    .isEqualTo(i + 1L);
            JsonNode status = QueueClient.JSON.readTree(r.body());
            assertThat(status.get("state").asString()).isEqualTo("WAITING");
            assertThat(status.get("position").get("aheadMin").asLong())
                    .as("a band around the %d ahead", i)
                    .isLessThanOrEqualTo(i);
            assertThat(status.get("position").get("aheadMax").asLong()).isGreaterThanOrEqualTo(i);
            assertThat(status.get("receipt").asString())
                    .isEqualTo(TICKETS.decode(r.ticket()).entryId());
        }
        assertThat(client.counts(event).get("waiting").asLong()).isEqualTo(150);
        Reply alone = client.status(event, joins.get(57).visitor());
        assertThat(alone.json().get("receipt").asString())
                .isEqualTo(QueueClient.JSON
                        .readTree(results.get(57).body())
                        .get("receipt")
                        .asString());
    }

    @Test
    void aBadJoinGetsItsOwnProblemAndTheOthersTheirPlaces() {
        String event = client.newEvent("batch-bad", "OPEN");
        String holder = VisitorId.random().value();
        assertThat(client.join(event, holder).status()).isEqualTo(201);
        String twice = VisitorId.random().value();
        List<JoinBatch.Join> joins = List.of(
                new JoinBatch.Join(VisitorId.random().value(), null, null, "{}"),
                new JoinBatch.Join(holder, null, null, "{}"),
                new JoinBatch.Join("not-a-visitor-id", null, null, "{}"),
                new JoinBatch.Join(VisitorId.random().value(), null, null, "[1]"),
                new JoinBatch.Join(null, null, null, null),
                new JoinBatch.Join(twice, null, null, null),
                new JoinBatch.Join(twice, null, null, null),
                new JoinBatch.Join(VisitorId.random().value(), null, null, "{}"));
        List<JoinResult> results = batch(event, joins);

        assertThat(results).extracting(JoinResult::status).containsExactly(201, 200, 400, 400, 400, 201, 200, 201);
        assertThat(problemType(results.get(2))).isEqualTo(ProblemType.MALFORMED_REQUEST.slug());
        assertThat(problemType(results.get(3))).isEqualTo(ProblemType.MALFORMED_REQUEST.slug());
        assertThat(problemType(results.get(4))).isEqualTo(ProblemType.VISITOR_REQUIRED.slug());
        assertThat(QueueClient.JSON
                        .readTree(results.get(2).body())
                        .get("instance")
                        .asString())
                .as("the path the visitor joined, not the batch's")
                .isEqualTo("/events/" + event + "/queue");
        assertThat(results.get(2).ticket()).isNull();
        assertThat(receipt(results.get(5)))
                .as("a second join of one visitor finds the first")
                .isEqualTo(receipt(results.get(6)));
        assertThat(TICKETS.decode(results.get(0).ticket()).orderKey()).isEqualTo(2);
        assertThat(TICKETS.decode(results.get(5).ticket()).orderKey()).isEqualTo(3);
        assertThat(TICKETS.decode(results.get(7).ticket()).orderKey()).isEqualTo(4);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("waiting").asLong()).isEqualTo(4);
        assertThat(counts.get("joins").asLong()).isEqualTo(4);
    }

    @Test
    void aRepeatedBatchMakesNothingTwice() {
        String event = client.newEvent("batch-repeat", "OPEN");
        List<JoinBatch.Join> joins = IntStream.range(0, 40)
                .mapToObj(i -> new JoinBatch.Join(VisitorId.random().value(), null, null, "{}"))
                .toList();
        List<JoinResult> first = batch(event, joins);
        List<JoinResult> again = batch(event, joins);

        assertThat(first).extracting(JoinResult::status).containsOnly(201);
        assertThat(again).extracting(JoinResult::status).containsOnly(200);
        assertThat(again)
                .extracting(JoinBatchTests::receipt)
                .isEqualTo(first.stream().map(JoinBatchTests::receipt).toList());
        assertThat(client.counts(event).get("joins").asLong()).isEqualTo(40);
    }

    @Test
    void concurrentBatchesAndSingleJoinsGetDistinctGapFreePlaces() throws Exception {
        String event = client.newEvent("batch-concurrent", "OPEN");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<Long>>> calls = new ArrayList<>();
            for (int b = 0; b < 16; b++) {
                calls.add(pool.submit(() -> {
                    List<JoinBatch.Join> joins = IntStream.range(0, 100)
                            .mapToObj(i -> new JoinBatch.Join(VisitorId.random().value(), null, null, null))
                            .toList();
                    return batch(event, joins).stream()
                            .map(r -> TICKETS.decode(r.ticket()).orderKey())
                            .toList();
                }));
                calls.add(pool.submit(() -> List.of(
                        client.join(event, VisitorId.random().value()).ticket().orderKey())));
            }
            List<Long> keys = new ArrayList<>();
            for (Future<List<Long>> call : calls) {
                List<Long> batchKeys = call.get();
                assertThat(batchKeys).as("a batch's places in its order").isSorted();
                keys.addAll(batchKeys);
            }
            assertThat(keys).doesNotHaveDuplicates().hasSize(16 * 101);
            assertThat(keys.stream().mapToLong(Long::longValue).max().orElseThrow())
                    .isEqualTo(16 * 101);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aClosedOrThrottledEventAnswersEveryJoinWithItsProblem() {
        String event = QueueClient.newEventId("batch-throttled");
        assertThat(client.putEvent(event, "OPEN", "\"maxJoinsPerSecond\":0.05").status())
                .isEqualTo(200);
        List<JoinResult> results = batch(
                event,
                IntStream.range(0, 3)
                        .mapToObj(i -> new JoinBatch.Join(VisitorId.random().value(), null, null, null))
                        .toList());
        assertThat(results.get(0).status()).isEqualTo(201);
        assertThat(results.subList(1, 3)).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(503);
            assertThat(problemType(r)).isEqualTo(ProblemType.JOINS_THROTTLED.slug());
            assertThat(r.retryAfterSeconds()).isPositive();
        });

        String unknown = QueueClient.newEventId("batch-unknown");
        assertThat(batch(unknown, List.of(new JoinBatch.Join(VisitorId.random().value(), null, null, null))))
                .singleElement()
                .satisfies(r -> assertThat(problemType(r)).isEqualTo(ProblemType.UNKNOWN_EVENT.slug()));
    }

    @Test
    void aMalformedOrOversizedBatchIsRefusedWhole() {
        String event = client.newEvent("batch-malformed", "OPEN");
        String path = "/internal/events/" + event + "/joins";
        assertThat(problemSlug(client.internal("POST", path, "{\"joins\":[]}"))).isEqualTo("malformed-request");
        assertThat(problemSlug(client.internal("POST", path, "{\"joins\":[null]}")))
                .isEqualTo("malformed-request");
        assertThat(problemSlug(client.internal("POST", path, "[1,2]"))).isEqualTo("malformed-request");
        assertThat(problemSlug(client.internal(
                        "POST",
                        path,
                        "{\"joins\":[{\"visitor\":\"" + VisitorId.random().value() + "\",\"body\":\"{\\\"pad\\\":\\\""
                                + "x".repeat(JoinBatch.MAX_BODY_CHARS) + "\\\"}\"}]}")))
                .isEqualTo("malformed-request");
        String tooMany = IntStream.range(0, JoinBatch.MAX_JOINS + 1)
                .mapToObj(i -> "{\"visitor\":\"" + VisitorId.random().value() + "\"}")
                .collect(Collectors.joining(",", "{\"joins\":[", "]}"));
        Reply refused = client.internal("POST", path, tooMany);
        assertThat(refused.status()).isEqualTo(413);
        assertThat(problemSlug(refused)).isEqualTo("body-too-large");
        Reply overLimit = client.internal("POST", path, "{\"joins\":[{\"visitor\":\"" + "x".repeat(17_000) + "\"}]}");
        assertThat(overLimit.status()).as("over the service's body limit").isEqualTo(413);
        assertThat(client.counts(event).get("joins").asLong()).isZero();
        Reply noCredential = client.send(
                "POST", path, "{\"joins\":[{\"visitor\":\"" + VisitorId.random().value() + "\"}]}", Map.of());
        assertThat(noCredential.status()).isIn(401, 403);
    }

    private List<JoinResult> batch(String event, List<JoinBatch.Join> joins) {
        Reply r = client.internal(
                "POST",
                QueuePaths.JOINS.replace("{eventId}", event),
                QueueClient.JSON.writeValueAsString(new JoinBatch(joins)));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return QueueClient.JSON.readValue(r.body(), JoinResults.class).results();
    }

    private static String receipt(JoinResult r) {
        return QueueClient.JSON.readTree(r.body()).get("receipt").asString();
    }

    private static String problemType(JoinResult r) {
        String type = QueueClient.JSON.readTree(r.body()).get("type").asString();
        return type.substring(type.lastIndexOf('/') + 1);
    }

    private static String problemSlug(Reply r) {
        String type = r.json().get("type").asString();
        return type.substring(type.lastIndexOf('/') + 1);
    }
}
