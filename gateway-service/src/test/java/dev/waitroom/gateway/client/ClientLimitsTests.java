package dev.waitroom.gateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.testsupport.SyntheticClients;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Limits per client address, through the real gateway (real Redis, real HTTP, stub upstreams): the client is the
 * address in {@code X-Forwarded-For}, believed because the test's peer is loopback, a trusted proxy.
 */
@GatewayIntegrationTest
class ClientLimitsTests {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    String newEvent() {
        String event = "cl-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        return event;
    }

    /** {@code count} calls on {@code threads} threads, results in call order. */
    static <T> List<T> inParallel(int threads, int count, IntFunction<T> call) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<T>> futures = IntStream.range(0, count)
                    .mapToObj(i -> pool.submit(() -> call.apply(i)))
                    .toList();
            return futures.stream()
                    .map(future -> {
                        try {
                            return future.get(60, TimeUnit.SECONDS);
                        } catch (Exception ex) {
                            throw new IllegalStateException(ex);
                        }
                    })
                    .toList();
        } finally {
            pool.shutdownNow();
        }
    }

    long timed(Runnable run) {
        long started = System.nanoTime();
        run.run();
        return (long) Math.ceil((System.nanoTime() - started) / 1e9);
    }

    @Test
    void aCookieLessJoinFloodFromOneAddressIsLimited() {
        String event = newEvent();
        String address = SyntheticClients.next();
        int attempts = 160;
        List<Browser.Reply>[] replies = new List[1];
        long seconds = timed(() -> replies[0] =
                inParallel(16, attempts, i -> new Browser(port, address).post("/events/" + event + "/queue", "{}")));
        List<Browser.Reply> created =
                replies[0].stream().filter(r -> r.status() == 201).toList();
        List<Browser.Reply> refused =
                replies[0].stream().filter(r -> r.status() == 429).toList();
        assertThat(created.size() + refused.size()).isEqualTo(attempts);
        // burst of 100 new visitors (and joins) per address, 5/s after it
        assertThat(created.size()).isBetween(100, 100 + 5 * ((int) seconds + 1));
        for (Browser.Reply reply : refused) {
            reply.assertProblem(429, "client-rate-limited");
            assertThat(reply.header("Retry-After")).isPresent();
            // each cookie-less join takes a token from the address's new-visitor bucket, then one from its join
            // bucket; both hold 100 and refill at 5/s, and the join bucket was made a moment later, so it can be the
            // one that is empty when the new-visitor bucket has just refilled a token
            String limit = reply.json().get("limit").asString();
            assertThat(limit).isIn("new-visitors", "joins");
            if (limit.equals("new-visitors")) {
                assertThat(reply.header("Set-Cookie"))
                        .as("no identity is minted for a request the new-visitor limit refused")
                        .isEmpty();
            }
        }
        assertThat(refused.stream()
                        .filter(r -> r.json().get("limit").asString().equals("new-visitors"))
                        .count())
                .as("the new-visitor bucket is what a cookie-less flood meets first")
                .isGreaterThanOrEqualTo(refused.size() / 2);
        assertThat(upstreams.queue.event(event).joinsCreated()).isEqualTo(created.size());
    }

    @Test
    void aClientCannotChooseItsAddressByWritingForwardingHeaders() {
        String event = newEvent();
        // the trusted proxy (loopback here) appended the real client, 203.0.113.x; whatever the client wrote to the
        // left of it, and a Forwarded header it added, are not read
        String real = "203.0.113." + (1 + (int) (Math.random() * 250));
        List<Browser.Reply> replies = inParallel(
                16,
                160,
                i -> new Browser(port, null)
                        .post(
                                "/events/" + event + "/queue",
                                "{}",
                                "X-Forwarded-For",
                                SyntheticClients.address(1000 + i) + ", " + real));
        long refused = replies.stream().filter(r -> r.status() == 429).count();
        assertThat(refused).as("160 spoofed addresses are one client").isGreaterThanOrEqualTo(160 - 100 - 20);
        replies.stream().filter(r -> r.status() == 429).forEach(r -> r.assertProblem(429, "client-rate-limited"));
    }

    @Test
    void aThousandDistinctAddressesBehindATrustedProxyAreNotLimited() {
        String event = newEvent();
        List<Browser.Reply> replies = inParallel(
                16, 1000, i -> new Browser(port, SyntheticClients.next()).post("/events/" + event + "/queue", "{}"));
        assertThat(replies)
                .allSatisfy(r -> assertThat(r.status()).as(r.toString()).isEqualTo(201));
        assertThat(upstreams.queue.event(event).joinsCreated()).isEqualTo(1000);
    }

    @Test
    void oneAddressJoiningWithKeptCookiesIsLimitedByItsJoinBucket() {
        String event = newEvent();
        String address = SyntheticClients.next();
        // 100 browsers of one address join (the bursts of new visitors and of joins), then join again with their
        // cookies: an identity kept is not a way around the address's join bucket
        List<Browser> browsers = IntStream.range(0, 100)
                .mapToObj(i -> new Browser(port, address))
                .toList();
        long seconds = timed(() -> browsers.forEach(b -> b.post("/events/" + event + "/queue", "{}")));
        List<Browser.Reply> again = browsers.stream()
                .map(b -> b.post("/events/" + event + "/queue", "{}"))
                .toList();
        List<Browser.Reply> refused =
                again.stream().filter(r -> r.status() == 429).toList();
        assertThat(refused.size()).isGreaterThanOrEqualTo(100 - 5 * (2 * (int) seconds + 2));
        refused.forEach(r -> {
            r.assertProblem(429, "client-rate-limited");
            assertThat(r.json().get("limit").asString()).isEqualTo("joins");
        });
    }

    @Test
    void unticketedPollsFromOneAddressAreLimitedAndNeverReachTheQueueServiceBeyondIt() {
        String event = newEvent();
        String address = SyntheticClients.next();
        String path = "/events/" + event + "/queue/status";
        long before = upstreams.queue.countReceived(path);
        List<Browser.Reply> replies =
                inParallel(16, 300, i -> new Browser(port, address).get("/events/" + event + "/queue/status"));
        long refused = replies.stream().filter(r -> r.status() == 429).count();
        assertThat(refused).isGreaterThanOrEqualTo(150);
        replies.stream().filter(r -> r.status() == 429).forEach(r -> r.assertProblem(429, "client-rate-limited"));
        assertThat(upstreams.queue.countReceived(path) - before)
                .as("only polls within the address's buckets reach the queue-service")
                .isEqualTo(300 - refused);
    }

    @Test
    void whileRedisIsDownNewIdentitiesJoinsAndClaimsFailClosedAndTicketedStatusIsAnswered() {
        String event = newEvent();
        upstreams.queue.event(event).admissionRate(2.0).addWaiting(200);
        Browser waiting = new Browser(port);
        assertThat(waiting.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        Browser identified = new Browser(port);
        assertThat(identified.get("/events/" + event + "/queue/status").status())
                .isNotEqualTo(503);
        RealStores.stopRedis();
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> meters.get("waitroom.gateway.redis.reachable")
                                    .gauge()
                                    .value()
                            == 0);
            Browser.Reply newcomer = new Browser(port).post("/events/" + event + "/queue", "{}");
            newcomer.assertProblem(503, "queue-store-unavailable");
            assertThat(newcomer.header("Retry-After")).contains("5");
            assertThat(newcomer.header("Set-Cookie")).isEmpty();
            identified.post("/events/" + event + "/queue", "{}").assertProblem(503, "queue-store-unavailable");
            waiting.post("/events/" + event + "/admission/claim", "{}").assertProblem(503, "admission-unavailable");
            Browser.Reply status = waiting.get("/events/" + event + "/queue/status");
            assertThat(status.status()).as(status.toString()).isEqualTo(200);
            assertThat(status.header("X-Waitroom-Status-Source")).contains("edge");
            assertThat(new Browser(port).get("/events/" + event).status())
                    .as("the waiting page itself is served")
                    .isEqualTo(200);
        } finally {
            RealStores.startRedis();
        }
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(new Browser(port)
                                .post("/events/" + event + "/queue", "{}")
                                .status())
                        .isEqualTo(201));
    }
}
