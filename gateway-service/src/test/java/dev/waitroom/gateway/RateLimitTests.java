package dev.waitroom.gateway;

import static dev.waitroom.gateway.RoutingTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

@GatewayIntegrationTest
class RateLimitTests {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    /** Seconds the last {@link #concurrently} call took, rounded up: the refill the limiter may have granted. */
    long elapsedSeconds;

    List<Browser.Reply> concurrently(int count, Callable<Browser.Reply> call) throws Exception {
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Browser.Reply>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
            List<Browser.Reply> replies = new ArrayList<>();
            for (Future<Browser.Reply> future : futures) {
                replies.add(future.get());
            }
            elapsedSeconds = (long) Math.ceil((System.nanoTime() - started) / 1e9);
            return replies;
        } finally {
            pool.shutdownNow();
        }
    }

    /** An event the coordinator has pushed to the queue-service. */
    String newEvent() {
        String event = "rl-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        return event;
    }

    @Test
    void joinFloodFromOneVisitorIsLimitedWithAProblemAndRetryAfterWhileOthersAreNot() throws Exception {
        String event = newEvent();
        Browser flooder = new Browser(port);
        assertThat(flooder.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        List<Browser.Reply> replies = concurrently(16, () -> flooder.post("/events/" + event + "/queue", "{}"));
        List<Browser.Reply> limited =
                replies.stream().filter(r -> r.status() == 429).toList();
        // burst 10 tokens, 2 per join, 1 token/s: after the first join at most 4 more, plus the refill
        long mayPass = 4 + (elapsedSeconds + 1) / 2;
        assertThat(limited).hasSizeGreaterThanOrEqualTo((int) (16 - mayPass));
        assertThat(replies.stream().filter(r -> r.status() == 200)).allMatch(r -> r.status() == 200);
        for (Browser.Reply reply : limited) {
            assertProblem(reply, 429, "rate-limited");
            assertThat(reply.header("Retry-After")).contains("2");
            assertThat(reply.json().get("retryAfterSeconds").asInt()).isEqualTo(2);
        }
        long reachedQueue = upstreams.queue.countReceived("/events/" + event + "/queue");
        assertThat(reachedQueue)
                .isEqualTo(1 + replies.stream().filter(r -> r.status() < 300).count());

        Browser other = new Browser(port, flooder.address());
        assertThat(other.post("/events/" + event + "/queue", "{}").status())
                .as("another visitor from the same address is not limited")
                .isEqualTo(201);
    }

    @Test
    void statusPollFloodIsLimitedPerVisitor() throws Exception {
        String event = newEvent();
        upstreams.queue.event(event).addWaiting(50);
        Browser poller = new Browser(port);
        assertThat(poller.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        List<Browser.Reply> replies = concurrently(40, () -> poller.get("/events/" + event + "/queue/status"));
        long limited = replies.stream().filter(r -> r.status() == 429).count();
        assertThat(limited).as("burst of 20 polls, 2/s").isGreaterThanOrEqualTo(40 - 20 - 2 * elapsedSeconds);
        assertThat(limited).isPositive();
        replies.stream().filter(r -> r.status() == 429).forEach(r -> assertProblem(r, 429, "rate-limited"));
    }

    @Test
    void claimFloodIsLimited() throws Exception {
        String event = newEvent();
        Browser claimer = new Browser(port);
        assertThat(claimer.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        List<Browser.Reply> replies =
                concurrently(20, () -> claimer.post("/events/" + event + "/admission/claim", "{}"));
        long limited = replies.stream().filter(r -> r.status() == 429).count();
        assertThat(limited).as("burst of 10 claims, 1/s").isGreaterThanOrEqualTo(20 - 10 - elapsedSeconds);
        assertThat(limited).isPositive();
    }
}
