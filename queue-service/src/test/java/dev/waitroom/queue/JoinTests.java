package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.tokens.VisitorId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

@QueueServiceTest
class JoinTests {

    private final QueueClient client;

    JoinTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void concurrentJoinsOfOneIdentityConvergeOnOneEntry() throws Exception {
        String event = client.newEvent("one-identity", "OPEN");
        String visitor = VisitorId.random().value();
        List<Reply> replies = concurrently(64, i -> client.join(event, visitor));

        assertThat(replies.stream().filter(r -> r.status() == 201)).hasSize(1);
        assertThat(replies.stream().filter(r -> r.status() == 200)).hasSize(63);
        assertThat(replies.stream().map(Reply::receipt).distinct()).hasSize(1);
        assertThat(replies.stream().map(r -> r.ticket().orderKey()).distinct()).containsExactly(1L);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("waiting").asLong()).isEqualTo(1);
        assertThat(counts.get("joins").asLong()).isEqualTo(1);
    }

    @Test
    void tenThousandConcurrentJoinsGetDistinctGapFreeOrderKeys() throws Exception {
        String event = client.newEvent("ten-thousand", "OPEN");
        int n = 10_000;
        List<Reply> replies =
                concurrently(n, i -> client.join(event, VisitorId.random().value()));

        assertThat(replies).allSatisfy(r -> assertThat(r.status()).isEqualTo(201));
        Set<Long> keys = replies.stream().map(r -> r.ticket().orderKey()).collect(Collectors.toSet());
        assertThat(keys).isEqualTo(LongStream.rangeClosed(1, n).boxed().collect(Collectors.toSet()));
        assertThat(replies.stream().map(Reply::receipt).distinct()).hasSize(n);
        assertThat(client.counts(event).get("waiting").asLong()).isEqualTo(n);
    }

    @Test
    void orderIsAssignedByTheServerInJoinOrder() {
        String event = client.newEvent("fifo", "OPEN");
        long previous = 0;
        for (int i = 0; i < 20; i++) {
            Reply r = client.asVisitor(
                    "POST",
                    "/events/" + event + "/queue",
                    VisitorId.random().value(),
                    "{\"joinedAt\":\"1970-01-01T00:00:00Z\",\"orderKey\":1}");
            assertThat(r.status()).isEqualTo(201);
            assertThat(r.ticket().orderKey()).isGreaterThan(previous);
            previous = r.ticket().orderKey();
        }
    }

    @Test
    void afterLeavingANewJoinGoesToTheBack() {
        String event = client.newEvent("rejoin", "OPEN");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        client.join(event, VisitorId.random().value());

        Reply left = client.leave(event, visitor);
        assertThat(left.status()).isEqualTo(200);
        assertThat(left.json().get("state").asString()).isEqualTo("LEFT");
        assertThat(client.leave(event, visitor).status())
                .as("leave is idempotent")
                .isEqualTo(200);

        Reply again = client.join(event, visitor);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.receipt()).isNotEqualTo(first.receipt());
        assertThat(again.ticket().orderKey()).isEqualTo(3);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("waiting").asLong()).isEqualTo(2);
        assertThat(counts.get("left").asLong()).isEqualTo(1);
    }

    @Test
    void aPresaleRejoinGetsItsOldEntryBack() {
        String event = client.newEvent("presale-rejoin", "SCHEDULED");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.ticket().orderKey()).as("unknown before the draw").isZero();
        assertThat(first.json().get("position").isNull()).isTrue();

        client.leave(event, visitor);
        Reply again = client.join(event, visitor);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.receipt()).isEqualTo(first.receipt());
        assertThat(again.json().get("state").asString()).isEqualTo("WAITING");
        assertThat(client.counts(event).get("waiting").asLong()).isEqualTo(1);
    }

    @Test
    void accountScopedEventsKeepOnePlacePerAccountAcrossBrowsers() {
        String event = QueueClient.newEventId("accounts");
        client.putEvent(event, "OPEN", "\"identityScope\":\"ACCOUNT\"");
        java.util.Map<String, String> laptop = java.util.Map.of(
                Headers.INTERNAL,
                TestSecrets.GATEWAY.credential(),
                Headers.VISITOR,
                VisitorId.random().value(),
                Headers.ACCOUNT,
                "user-42");
        java.util.Map<String, String> phone = java.util.Map.of(
                Headers.INTERNAL,
                TestSecrets.GATEWAY.credential(),
                Headers.VISITOR,
                VisitorId.random().value(),
                Headers.ACCOUNT,
                "user-42");
        Reply a = client.send("POST", "/events/" + event + "/queue", null, laptop);
        Reply b = client.send("POST", "/events/" + event + "/queue", null, phone);
        assertThat(a.status()).isEqualTo(201);
        assertThat(b.status()).isEqualTo(200);
        assertThat(b.receipt()).isEqualTo(a.receipt());
        Reply status = client.send("GET", "/events/" + event + "/queue/status", null, phone);
        assertThat(status.receipt()).isEqualTo(a.receipt());
    }

    @Test
    void browserScopedEventsIgnoreTheAccount() {
        String event = client.newEvent("browser-scope", "OPEN");
        java.util.Map<String, String> one = java.util.Map.of(
                Headers.INTERNAL,
                TestSecrets.GATEWAY.credential(),
                Headers.VISITOR,
                VisitorId.random().value(),
                Headers.ACCOUNT,
                "user-7");
        java.util.Map<String, String> two = java.util.Map.of(
                Headers.INTERNAL,
                TestSecrets.GATEWAY.credential(),
                Headers.VISITOR,
                VisitorId.random().value(),
                Headers.ACCOUNT,
                "user-7");
        assertThat(client.send("POST", "/events/" + event + "/queue", null, one).status())
                .isEqualTo(201);
        assertThat(client.send("POST", "/events/" + event + "/queue", null, two).status())
                .isEqualTo(201);
    }

    static <T> List<T> concurrently(int count, IndexedCall<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(count, 64));
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                Callable<T> task = () -> {
                    start.await();
                    return call.call(index);
                };
                futures.add(pool.submit(task));
            }
            start.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    interface IndexedCall<T> {
        T call(int index) throws Exception;
    }
}
