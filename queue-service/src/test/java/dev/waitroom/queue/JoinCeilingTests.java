package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.testsupport.AllAtOnce;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.tokens.VisitorId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The per-event join ceiling (issue 16, item 3), against the real service and Redis: at most the ceiling's entries per
 * window of the Redis clock, the rest 503 {@code joins-throttled} with Retry-After and no entry; a visitor who holds
 * an entry is never refused; 0 is no ceiling.
 */
@QueueServiceTest
class JoinCeilingTests {

    private final QueueClient client;

    JoinCeilingTests(QueueClient client) {
        this.client = client;
    }

    private String eventWithCeiling(String prefix, String maxJoinsPerSecond) {
        String event = QueueClient.newEventId(prefix);
        Reply put = client.putEvent(event, "OPEN", "\"maxJoinsPerSecond\":" + maxJoinsPerSecond);
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        return event;
    }

    /** The Redis server's clock, whole seconds: the clock join.lua counts windows on. */
    private static long redisSecond() throws IOException {
        try (RedisProbe redis = new RedisProbe(RealStores.redisHost(), RealStores.redisPort())) {
            @SuppressWarnings("unchecked")
            List<Object> time = (List<Object>) redis.call("TIME");
            return Long.parseLong((String) time.get(0));
        }
    }

    @Test
    void concurrentJoinsBeyondTheCeilingAreRefusedWithRetryAfterAndCreateNothing() throws Exception {
        int ceiling = 5;
        int joins = 200;
        String event = eventWithCeiling("ceiling", Integer.toString(ceiling));
        List<String> visitors = new ArrayList<>();
        List<Callable<Reply>> calls = new ArrayList<>();
        for (int i = 0; i < joins; i++) {
            String visitor = VisitorId.random().value();
            visitors.add(visitor);
            calls.add(() -> client.join(event, visitor));
        }

        long firstSecond = redisSecond();
        List<Reply> replies = AllAtOnce.call(calls);
        long lastSecond = redisSecond();
        long windows = lastSecond - firstSecond + 1;

        List<String> created = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < joins; i++) {
            Reply r = replies.get(i);
            if (r.status() == 201) {
                created.add(visitors.get(i));
                continue;
            }
            assertThat(r.status()).as(r.body()).isEqualTo(503);
            assertThat(r.header("Content-Type")).startsWith("application/problem+json");
            assertThat(r.json().get("type").asString()).endsWith("/joins-throttled");
            assertThat(r.json().get("detail").asString()).contains("not made").contains("tries again");
            assertThat(r.header("Retry-After"))
                    .as("a one-second window ends within a second")
                    .isEqualTo("1");
            refused.add(visitors.get(i));
        }
        assertThat(created.size())
                .as("at most %d per window over the %d windows of the Redis clock the race spanned", ceiling, windows)
                .isBetween(ceiling, (int) (ceiling * windows));
        assertThat(refused).hasSize(joins - created.size());

        JsonNode counts = client.counts(event);
        assertThat(counts.get("joins").asLong()).isEqualTo(created.size());
        assertThat(counts.get("waiting").asLong()).isEqualTo(created.size());
        for (String visitor : refused.subList(0, 20)) {
            Reply status = client.status(event, visitor);
            assertThat(status.status()).as("a refused join left no entry").isEqualTo(404);
            assertThat(status.json().get("type").asString()).endsWith("/not-in-queue");
        }
        // the order keys of the entries made are 1..n without gaps: a refused join took no sequence
        List<Long> keys = new ArrayList<>();
        for (String visitor : created) {
            keys.add(client.status(event, visitor).ticket().orderKey());
        }
        assertThat(keys)
                .containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.rangeClosed(1, created.size())
                        .boxed()
                        .toList());
    }

    @Test
    void aVisitorWhoHoldsAnEntryIsNeverRefusedAndIsNotCounted() {
        // one entry per 20 s window: after one refusal the window is full for (almost always) many seconds
        String event = eventWithCeiling("ceiling-repeat", "0.05");
        String holder = VisitorId.random().value();
        Reply first = client.join(event, holder);
        Reply refused = null;
        for (int i = 0; i < 3 && refused == null; i++) {
            Reply r = client.join(event, VisitorId.random().value());
            if (r.status() == 503) {
                refused = r;
            }
        }
        assertThat(refused).as("a second new entry in the window is refused").isNotNull();
        assertThat(Long.parseLong(refused.header("Retry-After")))
                .as("the seconds left of a 20 s window")
                .isBetween(1L, 20L);

        for (int i = 0; i < 5; i++) {
            Reply again = client.join(event, holder);
            assertThat(again.status())
                    .as("the holder's repeat join answers its entry: %s", again.body())
                    .isIn(200, 201);
            if (first.status() == 201) {
                assertThat(again.status()).isEqualTo(200);
                assertThat(again.receipt()).isEqualTo(first.receipt());
            }
        }
    }

    @Test
    void aRejoinIsANewEntryAndCountsAgainstTheCeiling() {
        // one entry per 20 s window; the visitor's entry expires, then its rejoin meets a full window
        String event = QueueClient.newEventId("ceiling-rejoin");
        Reply put = client.putEvent(event, "OPEN", "\"maxJoinsPerSecond\":0.05,\"expiredOfferPolicy\":\"DROP\"");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        String visitor = VisitorId.random().value();
        String entry = client.join(event, visitor).receipt();
        client.offer(event, entry, "g-ceiling-rejoin");
        client.transition(event, entry, "OFFER_EXPIRED", "g-ceiling-rejoin");
        assertThat(client.status(event, visitor).json().get("state").asString()).isEqualTo("EXPIRED");

        // fill the current window with newcomers until one is refused
        Reply refused = null;
        for (int i = 0; i < 3 && refused == null; i++) {
            Reply r = client.join(event, VisitorId.random().value());
            if (r.status() == 503) {
                refused = r;
            }
        }
        assertThat(refused).as("the window is full").isNotNull();
        long joinsBefore = client.counts(event).get("joins").asLong();

        Reply rejoin = client.join(event, visitor);
        if (rejoin.status() == 201) {
            // the window turned between the refusal and the rejoin (at most once in 20 s): the rejoin was counted
            assertThat(client.counts(event).get("joins").asLong()).isEqualTo(joinsBefore + 1);
            return;
        }
        assertThat(rejoin.status()).as(rejoin.body()).isEqualTo(503);
        assertThat(rejoin.json().get("type").asString()).endsWith("/joins-throttled");
        assertThat(rejoin.header("Retry-After")).isNotBlank();
        assertThat(client.counts(event).get("joins").asLong()).isEqualTo(joinsBefore);
        assertThat(client.status(event, visitor).receipt())
                .as("a refused rejoin left the identity on its old entry")
                .isEqualTo(entry);
    }

    @Test
    void aCeilingOfZeroIsNoCeilingAndLiftingOneLiftsIt() throws Exception {
        String event = eventWithCeiling("ceiling-off", "1");
        Reply put = client.putEvent(event, "OPEN", "\"maxJoinsPerSecond\":0");
        assertThat(put.json().get("joinGate").get("maxJoinsPerSecond").asDouble())
                .isZero();
        List<Reply> replies =
                AllAtOnce.call(100, () -> client.join(event, VisitorId.random().value()));
        assertThat(replies).allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(201));
        assertThat(client.counts(event).get("joins").asLong()).isEqualTo(100);
    }

    @Test
    void theJoinGateIsStoredAndAnsweredInTheStateAndTheEdgeSnapshot() {
        String event = QueueClient.newEventId("gate");
        Reply put = client.putEvent(event, "SCHEDULED", "\"maxJoinsPerSecond\":12.5,\"proofOfWorkDifficulty\":40000");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        assertThat(put.json().get("joinGate").get("maxJoinsPerSecond").asDouble())
                .isEqualTo(12.5);
        assertThat(put.json().get("joinGate").get("proofOfWorkDifficulty").asLong())
                .isEqualTo(40000);
        JsonNode snapshot = client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                .json();
        assertThat(snapshot.get("joinGate").get("maxJoinsPerSecond").asDouble()).isEqualTo(12.5);
        assertThat(snapshot.get("joinGate").get("proofOfWorkDifficulty").asLong())
                .isEqualTo(40000);

        // a push without the fields (an older coordinator) is no gate
        client.putEvent(event, "SCHEDULED", null);
        snapshot = client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                .json();
        assertThat(snapshot.get("joinGate").get("maxJoinsPerSecond").asDouble()).isZero();
        assertThat(snapshot.get("joinGate").get("proofOfWorkDifficulty").asLong())
                .isZero();

        for (String bad : List.of(
                "\"maxJoinsPerSecond\":-1",
                "\"maxJoinsPerSecond\":1000001",
                "\"proofOfWorkDifficulty\":-3",
                "\"proofOfWorkDifficulty\":10000001")) {
            Reply r = client.putEvent(event, "SCHEDULED", bad);
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.json().get("type").asString()).as(bad).endsWith("/malformed-request");
        }
    }
}
