package dev.waitroom.gateway.joins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.queue.FakeQueueEvent;
import dev.waitroom.testsupport.queue.FakeQueueService;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * Joins through the real gateway with batching on, one batch of an event in flight at a time (so a batch's joins
 * wait where a test can hold them): each join gets its own answer, cookies and problem, joins keep their arrival order,
 * a lone join is sent alone at once, and a batch that fails as a whole (the queue-service gone, too slow) gives every
 * join in it the answer a forwarded join gets, with nothing made twice on the retry.
 */
@GatewayIntegrationTest
@TestPropertySource(
        properties = {"waitroom.gateway.joins.batch.max-in-flight=1", "waitroom.gateway.joins.batch.timeout=2s"})
class JoinBatchingTests {

    private static final QueueTicketCodec TICKETS = QueueTicketCodec.of(HmacKey.fromBase64(StubUpstreams.TICKET_KEY));

    private static final VisitorCookieCodec VISITORS =
            VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    private final FakeQueueService queue = StubUpstreams.get().queue;

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private final List<FakeQueueEvent> touched = new ArrayList<>();

    @AfterEach
    void releaseHeldJoins() {
        touched.forEach(e -> e.holdJoins(null).dropJoins(false));
    }

    @Test
    void aLoneJoinIsSentAtOnceAsABatchOfOne() {
        String event = newEvent();
        Browser browser = new Browser(port);
        for (int i = 0; i < 5; i++) {
            browser.forgetCookie("wr_vid");
            Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
            assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        }
        assertThat(queue.event(event).joinBatches())
                .as("joins one after another never wait for company")
                .containsExactly(1, 1, 1, 1, 1);
    }

    @Test
    void twoHundredConcurrentJoinsEachGetTheirOwnAnswerInArrivalOrder() throws Exception {
        String event = newEvent();
        int connections = 20;
        int joinsEach = 10;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<Future<List<Joined>>> runs = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            for (int c = 0; c < connections; c++) {
                runs.add(pool.submit(() -> {
                    Browser browser = new Browser(port);
                    List<Joined> joined = new ArrayList<>();
                    start.await();
                    for (int i = 0; i < joinsEach; i++) {
                        browser.forgetCookie("wr_vid");
                        Browser.Reply r = browser.post("/events/" + event + "/queue", "{}");
                        joined.add(new Joined(
                                r,
                                browser.cookie("wr_vid").map(VISITORS::decode).orElse(null),
                                browser.cookie("wr_qt").map(TICKETS::decode).orElse(null)));
                    }
                    return joined;
                }));
            }
            start.countDown();
            Set<String> receipts = new HashSet<>();
            for (Future<List<Joined>> run : runs) {
                List<Joined> joined = run.get();
                long previous = -1;
                for (Joined j : joined) {
                    assertThat(j.reply().status()).as(j.reply().toString()).isEqualTo(201);
                    assertThat(j.reply().header("Cache-Control")).contains("no-store");
                    assertThat(j.reply().header("X-Waitroom-Ticket"))
                            .as("the ticket travels as a cookie")
                            .isEmpty();
                    String receipt = j.reply().json().get("receipt").asString();
                    assertThat(j.ticket().entryId()).as("its own ticket").isEqualTo(receipt);
                    assertThat(queue.event(event).entryOf(j.visitor().value()).entryId())
                            .as("its own visitor's entry")
                            .isEqualTo(receipt);
                    assertThat(j.ticket().orderKey())
                            .as("a connection's joins take places in the order it sent them")
                            .isGreaterThan(previous);
                    previous = j.ticket().orderKey();
                    receipts.add(receipt);
                }
            }
            assertThat(receipts).hasSize(connections * joinsEach);
            List<Integer> batches = queue.event(event).joinBatches();
            assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(connections * joinsEach);
            assertThat(batches.size())
                    .as("joins that arrived together went together: %s", batches)
                    .isLessThan(connections * joinsEach);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBadJoinInABatchGetsItsOwnProblemAndTheOthersTheirPlaces() throws Exception {
        String event = newEvent();
        Browser returning = new Browser(port);
        String firstReceipt = returning
                .post("/events/" + event + "/queue", "{}")
                .json()
                .get("receipt")
                .asString();
        CountDownLatch held = new CountDownLatch(1);
        queue.event(event).holdJoins(held);

        CompletableFuture<Browser.Reply> inFlight = join(new Browser(port), event, "{}");
        await().until(() -> queue.event(event).joinBatches().size() == 2);
        CompletableFuture<Browser.Reply> malformed = join(new Browser(port), event, "[1]");
        CompletableFuture<Browser.Reply> again = join(returning, event, "{}");
        CompletableFuture<Browser.Reply> fine = join(new Browser(port), event, "{}");
        await().until(() -> waiting() == 3);
        held.countDown();

        assertThat(inFlight.get().status()).isEqualTo(201);
        malformed.get().assertProblem(400, "malformed-request");
        assertThat(malformed.get().allHeaders("Set-Cookie"))
                .as("a refused join sets no ticket")
                .noneMatch(c -> c.startsWith("wr_qt="));
        assertThat(again.get().status()).as("a repeated join finds its place").isEqualTo(200);
        assertThat(again.get().json().get("receipt").asString()).isEqualTo(firstReceipt);
        assertThat(fine.get().status()).isEqualTo(201);
        assertThat(queue.event(event).joinBatches()).containsExactly(1, 1, 3);
    }

    @Test
    void theQueueServiceStoppingMidBatchGivesEveryJoinTheUnavailableProblem() throws Exception {
        String event = newEvent();
        CountDownLatch held = new CountDownLatch(1);
        queue.event(event).holdJoins(held);
        List<Browser> browsers = List.of(new Browser(port), new Browser(port), new Browser(port), new Browser(port));
        List<CompletableFuture<Browser.Reply>> joins = new ArrayList<>();
        joins.add(join(browsers.get(0), event, "{}"));
        await().until(() -> queue.event(event).joinBatches().size() == 1);
        for (Browser b : browsers.subList(1, 4)) {
            joins.add(join(b, event, "{}"));
        }
        await().until(() -> waiting() == 3);
        queue.event(event).dropJoins(true);
        held.countDown();

        for (CompletableFuture<Browser.Reply> j : joins) {
            j.get().assertProblem(503, "upstream-unavailable");
            assertThat(j.get().header("Retry-After")).isPresent();
            assertThat(j.get().json().get("instance").asString()).isEqualTo("/events/" + event + "/queue");
        }
        assertThat(queue.event(event).joinBatches()).containsExactly(1, 3);

        queue.event(event).dropJoins(false).holdJoins(null);
        for (Browser b : browsers) {
            assertThat(b.post("/events/" + event + "/queue", "{}").status())
                    .as("nothing was made: the retry makes the place")
                    .isEqualTo(201);
        }
    }

    @Test
    void aBatchThatTimesOutIsATimeoutForEachJoinAndTheRetryFindsThePlace() throws Exception {
        String event = newEvent();
        CountDownLatch held = new CountDownLatch(1);
        queue.event(event).holdJoins(held);
        Browser browser = new Browser(port);
        CompletableFuture<Browser.Reply> slow = join(browser, event, "{}");

        slow.get().assertProblem(504, "upstream-timeout");
        held.countDown();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> queue.event(event).entryOf(visitorOf(browser).value()) != null);
        Browser.Reply retried = browser.post("/events/" + event + "/queue", "{}");
        assertThat(retried.status())
                .as("the join the queue-service made late is found, not made twice")
                .isEqualTo(200);
        assertThat(retried.json().get("receipt").asString())
                .isEqualTo(
                        queue.event(event).entryOf(visitorOf(browser).value()).entryId());
    }

    @Test
    void aLongOrStreamedBodyIsForwardedOnItsOwnAsBefore() {
        String event = newEvent();
        Browser browser = new Browser(port);
        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{\"note\":\"" + "x".repeat(200) + "\"}");
        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        assertThat(queue.event(event).joinBatches()).isEmpty();
        assertThat(queue.lastReceived("/events/" + event + "/queue")
                        .orElseThrow()
                        .body())
                .contains("xxxx");
        browser.post("/events/" + event + "/queue", "[" + "1,".repeat(60) + "1]")
                .assertProblem(400, "malformed-request");
    }

    private double waiting() {
        return meters.get("waitroom.gateway.joins.waiting").gauge().value();
    }

    private static VisitorId visitorOf(Browser browser) {
        return VISITORS.decode(browser.cookie("wr_vid").orElseThrow());
    }

    private CompletableFuture<Browser.Reply> join(Browser browser, String event, String body) {
        return CompletableFuture.supplyAsync(() -> browser.post("/events/" + event + "/queue", body));
    }

    private String newEvent() {
        String event = "batch-" + UUID.randomUUID().toString().substring(0, 8);
        touched.add(queue.event(event));
        return event;
    }

    private record Joined(Browser.Reply reply, VisitorId visitor, QueueTicket ticket) {}
}
