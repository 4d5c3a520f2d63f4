package dev.waitroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.testsupport.queue.FakeQueueEvent;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.VisitorCookieCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@GatewayIntegrationTest
class EdgeStatusTests {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    record Waiting(Browser browser, String visitor) {}

    String newEvent() {
        return "edge-" + UUID.randomUUID().toString().substring(0, 12);
    }

    Waiting join(String event) {
        Browser browser = new Browser(port);
        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        return new Waiting(
                browser,
                visitorCodec.decode(browser.cookie("wr_vid").orElseThrow()).value());
    }

    static boolean answeredAtEdge(Browser.Reply reply) {
        return reply.header("X-Waitroom-Status-Source").filter("edge"::equals).isPresent();
    }

    double edgeCount() {
        return meters.counter("waitroom.gateway.status.polls", "answered", "edge", "reason", "none")
                .count();
    }

    double forwardedCount(String reason) {
        return meters.counter("waitroom.gateway.status.polls", "answered", "forwarded", "reason", reason)
                .count();
    }

    @Test
    void edgeAnswersAgreeWithTheQueueServiceTruthWithinTheBand() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(2.0);
        model.addWaiting(35);
        List<Waiting> visitors = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            visitors.add(join(event));
        }
        model.addWaiting(12);
        model.offerNext(3);
        double edgeBefore = edgeCount();
        int statusCallsBefore = model.statusCalls();
        int answeredAtEdge = 0;
        for (Waiting visitor : visitors) {
            Browser.Reply reply = visitor.browser().get("/events/" + event + "/queue/status");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            assertThat(reply.header("Cache-Control")).contains("no-store");
            JsonNode body = reply.json();
            FakeQueueEntry entry = model.entryOf(visitor.visitor());
            long truth = model.exactlyAhead(entry);
            assertThat(body.get("state").asString()).isEqualTo("WAITING");
            assertThat(body.get("receipt").asString()).isEqualTo(entry.entryId());
            long min = body.get("position").get("aheadMin").asLong();
            long max = body.get("position").get("aheadMax").asLong();
            assertThat(truth)
                    .as("truth %d within the band [%d, %d]", truth, min, max)
                    .isBetween(min, max);
            JsonNode estimate = body.get("estimatedWaitSeconds");
            if (estimate.isNull()) {
                // "not known yet": only where the contract's rule finds the range too wide to mean anything
                assertThat(QueueStatus.EstimatedWait.of(new QueueStatus.Position(min, max), 2.0, null))
                        .as("%d..%d ahead at 2/s", min, max)
                        .isNull();
            } else {
                assertThat(estimate.get("min").asLong())
                        .isLessThanOrEqualTo(estimate.get("max").asLong());
                assertThat(estimate.get("min").asDouble()).isLessThanOrEqualTo(truth / 2.0);
                assertThat(estimate.get("max").asDouble()).isGreaterThanOrEqualTo(truth / 2.0);
            }
            assertThat(body.get("pollAfterSeconds").asInt()).isBetween(2, 30);
            if (answeredAtEdge(reply)) {
                answeredAtEdge++;
            }
        }
        assertThat(answeredAtEdge)
                .as("fresh tickets and a fresh snapshot are answered at the edge")
                .isEqualTo(6);
        assertThat(edgeCount() - edgeBefore).isEqualTo(6);
        assertThat(model.statusCalls()).as("the queue-service saw none of them").isEqualTo(statusCallsBefore);
    }

    @Test
    void manyConcurrentPollsShareOneSnapshotFetchPerSecond() throws Exception {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(1.0);
        model.addWaiting(200);
        List<Waiting> visitors = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            visitors.add(join(event));
        }
        String snapshotPath = "/internal/events/" + event + "/snapshot";
        long fetchesBefore = upstreams.queue.countReceived(snapshotPath);
        ExecutorService pool = Executors.newFixedThreadPool(24);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Browser.Reply>> replies = new ArrayList<>();
            long began = System.nanoTime();
            for (Waiting visitor : visitors) {
                replies.add(pool.submit(() -> {
                    start.await();
                    return visitor.browser().get("/events/" + event + "/queue/status");
                }));
            }
            start.countDown();
            int edge = 0;
            for (var reply : replies) {
                Browser.Reply r = reply.get();
                assertThat(r.status()).isEqualTo(200);
                edge += answeredAtEdge(r) ? 1 : 0;
            }
            long seconds =
                    Math.max(1, Duration.ofNanos(System.nanoTime() - began).toSeconds() + 1);
            assertThat(upstreams.queue.countReceived(snapshotPath) - fetchesBefore)
                    .as("one snapshot call in flight per event, at most one per second")
                    .isLessThanOrEqualTo(seconds + 1);
            assertThat(edge)
                    .as("polls arriving while the first fetch runs join it")
                    .isEqualTo(24);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void pollIsForwardedOnceTheVisitorMayHaveBeenOffered() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(1.0);
        model.addWaiting(20);
        Waiting visitor = join(event);
        assertThat(answeredAtEdge(visitor.browser().get("/events/" + event + "/queue/status")))
                .isTrue();
        model.offerNext(21);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = visitor.browser().get("/events/" + event + "/queue/status");
            assertThat(answeredAtEdge(reply)).isFalse();
            assertThat(reply.json().get("state").asString()).isEqualTo("OFFERED");
            assertThat(reply.json().get("offer").get("expiresAt").asString()).isNotBlank();
        });
    }

    @Test
    void visitorNearTheFrontIsAnsweredAtTheEdgeAndAskedBackWithinASecond() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(2.0);
        model.addWaiting(3);
        Waiting visitor = join(event);
        String status = "/events/" + event + "/queue/status";
        AtomicReference<Browser.Reply> edge = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            Browser.Reply reply = visitor.browser().get(status);
            edge.set(reply);
            return answeredAtEdge(reply);
        });
        // 3 ahead at 2 offers/s: offers since the snapshot may have reached the visitor, so the band starts at 0 and
        // the next poll comes within a second, when a snapshot showing an offer sends it to the queue-service
        Browser.Reply reply = edge.get();
        assertThat(reply.json().get("state").asString()).isEqualTo("WAITING");
        assertThat(reply.json().get("position").get("aheadMin").asLong()).isZero();
        assertThat(reply.json().get("position").get("aheadMax").asLong()).isGreaterThanOrEqualTo(3);
        assertThat(reply.json().get("pollAfterSeconds").asInt()).isEqualTo(1);
        model.offerNext(4);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply offered = visitor.browser().get(status);
            assertThat(answeredAtEdge(offered)).isFalse();
            assertThat(offered.json().get("state").asString()).isEqualTo("OFFERED");
        });
    }

    @Test
    void missingTamperedForeignStaleAndPreDrawTicketsAreForwarded() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(1.0);
        model.addWaiting(30);
        Waiting visitor = join(event);
        String entryId = model.entryOf(visitor.visitor()).entryId();
        long key = model.entryOf(visitor.visitor()).orderKey();
        String status = "/events/" + event + "/queue/status";
        String ticketPath = "/events/" + event;

        visitor.browser().forgetCookie("wr_qt");
        double noTicket = forwardedCount("no-ticket");
        Browser.Reply withoutTicket = visitor.browser().get(status);
        assertThat(answeredAtEdge(withoutTicket)).isFalse();
        assertThat(forwardedCount("no-ticket")).isEqualTo(noTicket + 1);

        String good = upstreams.queue.ticketFor(new QueueTicket(event, entryId, key, Instant.now()));
        String tampered = good.substring(0, good.length() - 3) + (good.endsWith("A") ? "BBB" : "AAA");
        assertForwarded(visitor, status, ticketPath, tampered, "bad-ticket");

        String foreign = upstreams.queue.ticketFor(new QueueTicket("another-event", entryId, key, Instant.now()));
        assertForwarded(visitor, status, ticketPath, foreign, "other-event");

        String stale = upstreams.queue.ticketFor(
                new QueueTicket(event, entryId, key, Instant.now().minus(Duration.ofMinutes(31))));
        assertForwarded(visitor, status, ticketPath, stale, "old-ticket");

        model.drawCompletedAt(Instant.now().plusSeconds(5));
        String preDraw = upstreams.queue.ticketFor(new QueueTicket(event, entryId, key, Instant.now()));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertForwarded(visitor, status, ticketPath, preDraw, "before-draw"));
    }

    private void assertForwarded(Waiting visitor, String status, String ticketPath, String ticket, String reason) {
        visitor.browser().forgetCookie("wr_qt");
        visitor.browser().setCookie("wr_qt", ticket, ticketPath);
        double before = forwardedCount(reason);
        Browser.Reply reply = visitor.browser().get(status);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(answeredAtEdge(reply)).as(reason).isFalse();
        assertThat(forwardedCount(reason)).as(reason).isEqualTo(before + 1);
    }

    @Test
    void pausedEventIsAnsweredWithoutAnEstimateAndPreSaleWithoutAPosition() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(1.0);
        model.addWaiting(30);
        Waiting visitor = join(event);
        model.mode("PAUSED").announcement("Paused while payments recover");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = visitor.browser().get("/events/" + event + "/queue/status");
            assertThat(answeredAtEdge(reply)).isTrue();
            assertThat(reply.json().get("mode").asString()).isEqualTo("PAUSED");
            assertThat(reply.json().get("estimatedWaitSeconds").isNull()).isTrue();
            assertThat(reply.json().get("announcement").asString()).isEqualTo("Paused while payments recover");
        });
        model.mode("QUEUEING").phase("SCHEDULED").announcement(null);
        int statusCalls = model.statusCalls();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = visitor.browser().get("/events/" + event + "/queue/status");
            assertThat(answeredAtEdge(reply)).isTrue();
            assertThat(reply.json().get("phase").asString()).isEqualTo("SCHEDULED");
            assertThat(reply.json().get("position").isNull()).isTrue();
            assertThat(reply.json().get("receipt").asString())
                    .isEqualTo(model.entryOf(visitor.visitor()).entryId());
        });
        assertThat(model.statusCalls()).isEqualTo(statusCalls);
    }

    /**
     * The truth about pauses (docs/operating/schedules-and-pauses.md): the hold the snapshot carries reaches the
     * visitor's status at the edge, with no estimate while it stops offers and with one while the shop only slows them.
     */
    @Test
    void aHoldInTheSnapshotIsInTheEdgesStatusWithoutAnEstimateWhileItStopsOffers() {
        FarBack far = farBack();
        String event = far.event();
        FakeQueueEvent model = far.model().admissionRate(20.0);
        Waiting visitor = far.visitor();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = visitor.browser().get("/events/" + event + "/queue/status");
            assertThat(answeredAtEdge(reply)).isTrue();
            assertThat(reply.json().get("estimatedWaitSeconds").isNull())
                    .as("no hold: an estimate")
                    .isFalse();
        });
        java.time.Instant until = java.time.Instant.parse("2030-01-01T14:00:00Z");
        model.admissionHold(dev.waitroom.contract.queue.AdmissionHold.of(
                dev.waitroom.contract.queue.AdmissionHold.Cause.PLANNED_QUEUE_ALL, "Doors at two", until));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = visitor.browser().get("/events/" + event + "/queue/status");
            assertThat(answeredAtEdge(reply)).isTrue();
            assertThat(reply.json().get("mode").asString()).isEqualTo("QUEUEING");
            assertThat(reply.json().get("estimatedWaitSeconds").isNull()).isTrue();
            assertThat(reply.json().at("/admissionHold/cause").asString()).isEqualTo("PLANNED_QUEUE_ALL");
            assertThat(reply.json().at("/admissionHold/reason").asString()).isEqualTo("Doors at two");
            assertThat(reply.json().at("/admissionHold/until").asString()).isEqualTo("2030-01-01T14:00:00Z");
        });
        model.admissionHold(dev.waitroom.contract.queue.AdmissionHold.of(
                dev.waitroom.contract.queue.AdmissionHold.Cause.SHOP_SLOWED, null, null));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = visitor.browser().get("/events/" + event + "/queue/status");
            assertThat(answeredAtEdge(reply)).isTrue();
            assertThat(reply.json().at("/admissionHold/cause").asString()).isEqualTo("SHOP_SLOWED");
            assertThat(reply.json().get("estimatedWaitSeconds").isNull())
                    .as("slowed, admission still runs: an estimate")
                    .isFalse();
        });
        model.admissionHold(null);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = visitor.browser().get("/events/" + event + "/queue/status");
            assertThat(reply.json().hasNonNull("admissionHold")).isFalse();
        });
    }

    @Test
    void soldOutPollsGoToTheQueueServiceAndShowNoEstimateOrOffer() {
        FarBack far = farBack();
        double before = forwardedCount("mode");
        int statusCalls = far.model().statusCalls();
        far.model().mode("SOLD_OUT");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = far.visitor().browser().get(far.status());
            assertThat(answeredAtEdge(reply)).isFalse();
            assertThat(reply.json().get("mode").asString()).isEqualTo("SOLD_OUT");
            assertThat(reply.json().get("estimatedWaitSeconds").isNull()).isTrue();
            assertThat(reply.json().get("offer").isNull()).isTrue();
        });
        assertThat(forwardedCount("mode")).isGreaterThan(before);
        assertThat(far.model().statusCalls()).isGreaterThan(statusCalls);
    }

    /** A visitor far back in a queue of 200, whose polls the edge answers: the event, its model and the status path. */
    record FarBack(String event, FakeQueueEvent model, Waiting visitor, String status) {}

    FarBack farBack() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(1.0);
        model.addWaiting(200);
        Waiting visitor = join(event);
        String status = "/events/" + event + "/queue/status";
        await().atMost(Duration.ofSeconds(5))
                .until(() -> answeredAtEdge(visitor.browser().get(status)));
        return new FarBack(event, model, visitor, status);
    }

    @Test
    void livenessIsRecordedInBatchesSoOldTicketsAreStillAnsweredAtTheEdge() {
        FarBack far = farBack();
        String event = far.event();
        FakeQueueEvent model = far.model();
        Waiting visitor = far.visitor();
        FakeQueueEntry entry = model.entryOf(visitor.visitor());
        String status = far.status();
        // a ticket five liveness intervals old: before batching, every such poll went to the queue-service
        visitor.browser().forgetCookie("wr_qt");
        visitor.browser()
                .setCookie(
                        "wr_qt",
                        upstreams.queue.ticketFor(new QueueTicket(
                                event,
                                entry.entryId(),
                                entry.orderKey(),
                                Instant.now().minus(Duration.ofMinutes(5)))),
                        "/events/" + event);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> answeredAtEdge(visitor.browser().get(status)));
        int statusCalls = model.statusCalls();
        for (int i = 0; i < 5; i++) {
            assertThat(answeredAtEdge(visitor.browser().get(status))).isTrue();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> entry.seen() > 0);
        assertThat(model.statusCalls()).as("no poll forwarded for liveness").isEqualTo(statusCalls);
        assertThat(model.livenessBatches())
                .as("polls of one second share a batch")
                .isLessThan(6);
        assertThat(entry.seen())
                .as("reported at most once per report interval, not per poll")
                .isLessThan(4);
    }

    @Test
    void anEntryThatMovedOnIsForwardedOnceTheBatchSaysSo() {
        FarBack far = farBack();
        Waiting visitor = far.visitor();
        String status = far.status();
        // left through another gateway instance: this one still holds a valid waiting ticket
        far.model().entryOf(visitor.visitor()).leave();
        double changed = forwardedCount("entry-changed");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Browser.Reply reply = visitor.browser().get(status);
            assertThat(answeredAtEdge(reply)).isFalse();
            assertThat(reply.json().get("state").asString()).isEqualTo("LEFT");
        });
        assertThat(forwardedCount("entry-changed")).isGreaterThan(changed);
        assertThat(answeredAtEdge(visitor.browser().get(status)))
                .as("no fresh ticket for a left entry")
                .isFalse();
    }

    @Test
    void aTicketBorrowedFromAnotherVisitorRecordsNoLivenessForIt() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(1.0);
        model.addWaiting(200);
        Waiting owner = join(event);
        Waiting borrower = join(event);
        FakeQueueEntry ownersEntry = model.entryOf(owner.visitor());
        String ticket = owner.browser().cookie("wr_qt").orElseThrow();
        String status = "/events/" + event + "/queue/status";
        double changed = forwardedCount("entry-changed");
        // the edge may answer the borrowed ticket until the batch says it is not the borrower's entry
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            borrower.browser().forgetCookie("wr_qt");
            borrower.browser().setCookie("wr_qt", ticket, "/events/" + event);
            return !answeredAtEdge(borrower.browser().get(status));
        });
        assertThat(forwardedCount("entry-changed")).isGreaterThan(changed);
        assertThat(ownersEntry.seen())
                .as("the owner's liveness is not kept alive by someone else")
                .isZero();
    }

    @Test
    void forgedVisitorCookiesAndOddRequestsAreNeverAnsweredAtTheEdge() {
        FarBack far = farBack();
        String event = far.event();
        Waiting visitor = far.visitor();
        String status = far.status();
        String cookie = visitor.browser().cookie("wr_vid").orElseThrow();

        char flipped = cookie.charAt(3) == 'A' ? 'B' : 'A';
        visitor.browser().forgetCookie("wr_vid");
        visitor.browser().setCookie("wr_vid", cookie.substring(0, 3) + flipped + cookie.substring(4), "/");
        double noVisitor = forwardedCount("no-visitor");
        Browser.Reply forged = visitor.browser().get(status);
        assertThat(answeredAtEdge(forged)).isFalse();
        assertThat(forwardedCount("no-visitor")).isEqualTo(noVisitor + 1);
        assertThat(forged.allHeaders("Set-Cookie"))
                .as("a new identity is issued, as on every route")
                .anyMatch(c -> c.startsWith("wr_vid="));

        visitor.browser().forgetCookie("wr_vid");
        visitor.browser().setCookie("wr_vid", cookie, "/");
        assertThat(answeredAtEdge(visitor.browser().get(status + "?x=1")))
                .as("a query string")
                .isFalse();
        Browser.Reply badId = visitor.browser().get("/events/" + event + "%2e%2e/queue/status");
        assertThat(badId.status()).isIn(400, 404);
        assertThat(answeredAtEdge(badId)).isFalse();
        // the forwarded poll refreshed the ticket; a page polls every 2 s or more
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> answeredAtEdge(visitor.browser().get(status)));
    }
}
