package dev.waitroom.gateway.joins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.queue.FakeQueueService;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * The bounds of batching: an event's waiting joins are bounded (past {@code max-pending} a join is refused at once,
 * as when the queue-service cannot be reached, and nothing is made for it), and a full batch closes for the next.
 */
@GatewayIntegrationTest
@TestPropertySource(
        properties = {
            "waitroom.gateway.joins.batch.max-in-flight=1",
            "waitroom.gateway.joins.batch.max-pending=3",
            "waitroom.gateway.joins.batch.max-size=2"
        })
class JoinBatchLimitsTests {

    private final FakeQueueService queue = StubUpstreams.get().queue;

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Test
    void pastMaxPendingAJoinIsRefusedAtOnceAndFullBatchesGoInTurn() throws Exception {
        String event = "limits-" + UUID.randomUUID().toString().substring(0, 8);
        CountDownLatch held = new CountDownLatch(1);
        queue.event(event).holdJoins(held);
        try {
            CompletableFuture<Browser.Reply> inFlight = join(event);
            await().until(() -> queue.event(event).joinBatches().size() == 1);
            List<CompletableFuture<Browser.Reply>> waiting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                waiting.add(join(event));
            }
            await().until(() ->
                    meters.get("waitroom.gateway.joins.waiting").gauge().value() == 3);
            double refusedBefore =
                    meters.get("waitroom.gateway.joins.refused").counter().count();

            Browser.Reply refused = new Browser(port).post("/events/" + event + "/queue", "{}");
            refused.assertProblem(503, "upstream-unavailable");
            assertThat(refused.header("Retry-After")).isPresent();
            assertThat(meters.get("waitroom.gateway.joins.refused").counter().count())
                    .isEqualTo(refusedBefore + 1);

            held.countDown();
            assertThat(inFlight.get().status()).isEqualTo(201);
            for (CompletableFuture<Browser.Reply> j : waiting) {
                assertThat(j.get().status()).isEqualTo(201);
            }
            assertThat(queue.event(event).joinBatches())
                    .as("a batch of one at once, then the waiting three in batches of at most two")
                    .containsExactly(1, 2, 1);
            assertThat(queue.event(event).joinsCreated())
                    .as("nothing made for the refused join")
                    .isEqualTo(4);
        } finally {
            queue.event(event).holdJoins(null);
        }
    }

    private CompletableFuture<Browser.Reply> join(String event) {
        Browser browser = new Browser(port);
        return CompletableFuture.supplyAsync(() -> browser.post("/events/" + event + "/queue", "{}"));
    }
}
