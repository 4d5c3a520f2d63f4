package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.tokens.VisitorId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The edge's liveness batches: one call records many entries, and names the ones that moved on. */
@QueueServiceTest
class LivenessTests {

    @Autowired
    RedissonClient redisson;

    private final QueueClient client;

    LivenessTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void aBatchRecordsLastSeenOfWaitingEntriesAndNamesTheOthers() {
        String event = client.newEvent("live", "OPEN");
        String waiting = VisitorId.random().value();
        String leaver = VisitorId.random().value();
        String offered = VisitorId.random().value();
        String waitingEntry = client.join(event, waiting).receipt();
        String leaverEntry = client.join(event, leaver).receipt();
        String offeredEntry = client.join(event, offered).receipt();
        client.leave(event, leaver);
        client.offer(event, offeredEntry, "g1");
        String seenKey = "wr:{" + event + "}:s:0";
        redisson.getMap(seenKey, StringCodec.INSTANCE).fastPut(Long.toString(Long.parseLong(waitingEntry, 36)), "1");

        JsonNode result = seen(
                        event,
                        List.of(
                                List.of(waitingEntry, waiting),
                                List.of(leaverEntry, leaver),
                                List.of(offeredEntry, offered),
                                List.of(waitingEntry, VisitorId.random().value()),
                                List.of("zzzz", waiting)))
                .json();

        assertThat(strings(result.get("notWaiting")))
                .as("left, offered, someone else's ticket, unknown entry")
                .containsExactly(leaverEntry, offeredEntry, waitingEntry, "zzzz");
        long lastSeen = Long.parseLong(redisson.<String, String>getMap(seenKey, StringCodec.INSTANCE)
                .get(Long.toString(Long.parseLong(waitingEntry, 36))));
        assertThat(lastSeen).as("last-seen written for the waiting entry").isGreaterThan(1);
        JsonNode status = client.status(event, waiting).json();
        assertThat(status.get("position").get("aheadMin").asLong())
                .as("order untouched")
                .isZero();
    }

    @Test
    void statusHandsOutATicketOnlyWhileTheEntryWaits() {
        String event = client.newEvent("ticket", "OPEN");
        String visitor = VisitorId.random().value();
        Reply joined = client.join(event, visitor);
        assertThat(joined.header(Headers.TICKET)).isNotNull();
        client.offer(event, joined.receipt(), "g1");
        Reply offered = client.status(event, visitor);
        assertThat(offered.json().get("state").asString()).isEqualTo("OFFERED");
        assertThat(offered.header(Headers.TICKET)).isNull();
    }

    @Test
    void concurrentBatchesOfManyEntriesAllLand() throws Exception {
        String event = client.newEvent("batch", "OPEN");
        List<List<String>> pairs = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            String visitor = VisitorId.random().value();
            pairs.add(List.of(client.join(event, visitor).receipt(), visitor));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Reply>> replies = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                replies.add(pool.submit(() -> seen(event, pairs)));
            }
            for (Future<Reply> reply : replies) {
                assertThat(reply.get().status()).isEqualTo(200);
                assertThat(reply.get().json().get("notWaiting").isEmpty()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(client.counts(event).get("waiting").asLong()).isEqualTo(150);
    }

    @Test
    void malformedAndOversizedBatchesAreProblemsAndChangeNothing() {
        String event = client.newEvent("badlive", "OPEN");
        String visitor = VisitorId.random().value();
        String entry = client.join(event, visitor).receipt();
        for (String body : List.of(
                "",
                "{}",
                "{\"seen\":[[\"" + entry + "\"]]}",
                "{\"seen\":[[\"UPPER\",\"" + visitor + "\"]]}",
                "{\"seen\":[[\"" + entry + "\",\"not-a-visitor\"]]}",
                "{\"seen\":\"x\"}")) {
            Reply reply = client.internal("POST", "/internal/events/" + event + "/liveness", body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.header("Content-Type")).contains("application/problem+json");
        }
        List<List<String>> tooMany = new ArrayList<>();
        for (int i = 0; i < 151; i++) {
            tooMany.add(List.of(entry, visitor));
        }
        assertThat(seen(event, tooMany).status()).isEqualTo(400);
        assertThat(client.send("POST", "/events/" + event + "/liveness", "{\"seen\":[]}", java.util.Map.of())
                        .status())
                .as("not a public route")
                .isIn(403, 404, 405);
        assertThat(client.internal("POST", "/internal/events/Bad..Id/liveness", "{\"seen\":[]}")
                        .status())
                .isIn(400, 404);
    }

    private Reply seen(String event, List<List<String>> pairs) {
        String body = pairs.stream()
                .map(p -> p.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(",", "[", "]")))
                .collect(Collectors.joining(",", "{\"seen\":[", "]}"));
        return client.internal("POST", "/internal/events/" + event + "/liveness", body);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }
}
