package dev.waitroom.testsupport.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.Candidate;
import dev.waitroom.contract.queue.Candidates;
import dev.waitroom.contract.queue.DrawRequest;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.EntryTransition;
import dev.waitroom.contract.queue.EntryTransitionResult;
import dev.waitroom.contract.queue.EventStateView;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinBatch;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.JoinResult;
import dev.waitroom.contract.queue.JoinResults;
import dev.waitroom.contract.queue.LaneMove;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.contract.queue.LivenessBatch;
import dev.waitroom.contract.queue.LivenessResult;
import dev.waitroom.contract.queue.Offer;
import dev.waitroom.contract.queue.OfferBatch;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.OfferResults;
import dev.waitroom.contract.queue.PublicEventStatus;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.contract.queue.WaitingBucket;
import dev.waitroom.testsupport.TestHttpClient;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorId;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The queue-service's contract as its two callers use it (docs/reference/contracts.md), over HTTP with every body read
 * strictly into the contract's records, so one suite runs against {@link FakeQueueService} and the real queue-service
 * alike: where they differ, the fake is wrong. The gateway's side: join (single and batched), visitor status with its
 * ticket, leave, the public event status, the edge snapshot and liveness batches. The coordinator's side: the event
 * push with its phase and generation guards, the drop, the pre-sale draw, candidates (general and per lane), lane
 * moves, offers, every entry transition and the counts after each. Each scenario uses a fresh event.
 */
public abstract class QueueContractScenarios {

    /** Strict: a field one side writes and the record lacks fails the read. */
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final TestHttpClient HTTP = TestHttpClient.create(Duration.ofSeconds(10));

    /** The coordinator's draw seed (hex of 32 bytes), another, and the commitment it publishes (upper case: stored lower). */
    private static final String SEED = "5eed".repeat(16);

    private static final String OTHER_SEED = "0ddba11".repeat(9) + "0";

    private static final String COMMITMENT = sha256Hex(SEED);

    /** The answers the coordinator takes as "no, and asking again will not change it" (RestClientQueueDirectory). */
    private static final Set<Integer> REFUSALS = Set.of(400, 404, 409, 410, 422);

    /**
     * Where the implementation listens, the credentials of its two callers (the gateway's on the visitor routes, the
     * snapshot, liveness and batches of joins; the coordinator's on the rest of the internal API) and the key of the tickets it issues.
     */
    public record QueueUnderTest(
            URI baseUrl, String gatewayCredential, String coordinatorCredential, String ticketKey) {

        /** The credential of the service that makes this call in a deployment. */
        String credentialFor(String method, String path) {
            return FakeQueueService.gatewaysRoute(method, path) ? gatewayCredential : coordinatorCredential;
        }
    }

    /** The queue-service under test. */
    protected abstract QueueUnderTest queue();

    @Test
    void joinMakesOneEntryPerVisitorInJoinOrderWithATicket() {
        String event = open();
        String first = visitor();
        Answer joined = join(event, first);
        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        assertThat(joined.header("Cache-Control")).contains("no-store");
        QueueStatus status = joined.as(QueueStatus.class);
        assertThat(status.state()).isEqualTo("WAITING");
        assertThat(status.phase()).isEqualTo(EventPhase.OPEN);
        assertThat(status.mode()).isEqualTo(OperatingMode.QUEUEING);
        assertThat(status.position()).isEqualTo(new QueueStatus.Position(0, 0));
        assertThat(status.estimatedWaitSeconds()).isNotNull();
        assertThat(status.offer()).isNull();
        assertThat(status.pollAfterSeconds()).isPositive();
        assertThat(status.receipt()).isNotBlank();
        QueueTicket ticket = ticketOf(joined);
        assertThat(ticket.eventId()).isEqualTo(event);
        assertThat(ticket.entryId()).isEqualTo(status.receipt());
        assertThat(ticket.orderKey()).isPositive();
        assertThat(ticket.issuedAt())
                .isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));

        Answer again = join(event, first);
        assertThat(again.status()).as("a second join answers the same entry").isEqualTo(200);
        assertThat(again.as(QueueStatus.class).receipt()).isEqualTo(status.receipt());

        Answer second = join(event, visitor());
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.as(QueueStatus.class).receipt()).isNotEqualTo(status.receipt());
        assertThat(second.as(QueueStatus.class).position()).isEqualTo(new QueueStatus.Position(1, 1));
        assertThat(ticketOf(second).orderKey()).isGreaterThan(ticket.orderKey());
    }

    @Test
    void joinBodyIsEmptyOrAJsonObject() {
        String event = open();
        assertProblem(call("POST", "/events/" + event + "/queue", visitor(), "[1]"), ProblemType.MALFORMED_REQUEST);
        assertThat(call("POST", "/events/" + event + "/queue", visitor(), "{}").status())
                .isEqualTo(201);
        assertThat(call("POST", "/events/" + event + "/queue", visitor(), null).status())
                .isEqualTo(201);
    }

    @Test
    void aBatchOfJoinsIsAnsweredJoinByJoinAsEachAloneInItsOrder() {
        String event = open();
        String holder = visitor();
        String held = join(event, holder).as(QueueStatus.class).receipt();
        String first = visitor();
        String second = visitor();
        Answer batch = call(
                "POST",
                path(QueuePaths.JOINS, event),
                null,
                new JoinBatch(List.of(
                        new JoinBatch.Join(first, null, null, "{}"),
                        new JoinBatch.Join(holder, null, null, null),
                        new JoinBatch.Join(visitor(), null, null, "[1]"),
                        new JoinBatch.Join(null, null, null, null),
                        new JoinBatch.Join(second, null, null, null))));
        List<JoinResult> results = batch.as(JoinResults.class).results();

        assertThat(results).extracting(JoinResult::status).containsExactly(201, 200, 400, 400, 201);
        QueueStatus a = JSON.readValue(results.get(0).body(), QueueStatus.class);
        QueueStatus again = JSON.readValue(results.get(1).body(), QueueStatus.class);
        QueueStatus b = JSON.readValue(results.get(4).body(), QueueStatus.class);
        assertThat(again.receipt()).as("the holder's own entry").isEqualTo(held);
        assertThat(a.position()).isEqualTo(new QueueStatus.Position(1, 1));
        assertThat(b.position()).isEqualTo(new QueueStatus.Position(2, 2));
        QueueTicketCodec codec = QueueTicketCodec.of(HmacKey.fromBase64(queue().ticketKey()));
        assertThat(codec.decode(results.get(0).ticket()).entryId()).isEqualTo(a.receipt());
        assertThat(codec.decode(results.get(4).ticket()).orderKey())
                .isGreaterThan(codec.decode(results.get(0).ticket()).orderKey());
        assertThat(JSON.readTree(results.get(2).body()).get("type").asString())
                .isEqualTo(ProblemType.MALFORMED_REQUEST.type().toString());
        assertThat(JSON.readTree(results.get(3).body()).get("type").asString())
                .isEqualTo(ProblemType.VISITOR_REQUIRED.type().toString());
        assertThat(results.get(2).ticket()).isNull();
        assertThat(status(event, first).as(QueueStatus.class).receipt()).isEqualTo(a.receipt());

        assertProblem(
                call("POST", path(QueuePaths.JOINS, event), null, "{\"joins\":[]}"), ProblemType.MALFORMED_REQUEST);
        assertThat(call(
                                "POST",
                                path(QueuePaths.JOINS, newEvent()),
                                null,
                                new JoinBatch(List.of(new JoinBatch.Join(visitor(), null, null, null))))
                        .as(JoinResults.class)
                        .results())
                .singleElement()
                .satisfies(r -> assertThat(r.status()).isEqualTo(ProblemType.UNKNOWN_EVENT.status()));
    }

    @Test
    void statusRefreshesTheTicketOnlyWhileWaiting() {
        String event = open();
        String visitor = visitor();
        String entry = join(event, visitor).as(QueueStatus.class).receipt();
        Answer waiting = status(event, visitor);
        assertThat(waiting.status()).isEqualTo(200);
        assertThat(waiting.header("Cache-Control")).contains("no-store");
        assertThat(waiting.as(QueueStatus.class).state()).isEqualTo("WAITING");
        assertThat(ticketOf(waiting).entryId()).isEqualTo(entry);

        Instant deadline = Instant.now().plusSeconds(90).truncatedTo(ChronoUnit.SECONDS);
        assertThat(offer(event, entry, grant(), deadline))
                .extracting(OfferResult::state, OfferResult::applied)
                .containsExactly("OFFERED", true);
        Answer offered = status(event, visitor);
        QueueStatus status = offered.as(QueueStatus.class);
        assertThat(status.state()).isEqualTo("OFFERED");
        assertThat(status.offer()).isEqualTo(new QueueStatus.Offer(deadline));
        assertThat(status.position()).isNull();
        assertThat(status.receipt()).isEqualTo(entry);
        assertThat(offered.header(Headers.TICKET))
                .as("no ticket for an entry that is not waiting")
                .isEmpty();
    }

    @Test
    void statusNeedsAVisitorWithAPlace() {
        String event = open();
        assertProblem(status(event, visitor()), ProblemType.NOT_IN_QUEUE);
        assertProblem(call("GET", "/events/" + event + "/queue/status", null, null), ProblemType.VISITOR_REQUIRED);
        assertProblem(call("POST", "/events/" + event + "/queue", null, "{}"), ProblemType.VISITOR_REQUIRED);
    }

    @Test
    void leaveIsIdempotentAndAVisitorWhoLeftJoinsAtTheBack() {
        String event = open();
        String visitor = visitor();
        Answer joined = join(event, visitor);
        String entry = joined.as(QueueStatus.class).receipt();
        join(event, visitor());

        Answer left = leave(event, visitor);
        assertThat(left.status()).as(left.toString()).isEqualTo(200);
        assertThat(left.as(QueueStatus.class).state()).isEqualTo("LEFT");
        assertThat(left.as(QueueStatus.class).receipt()).isEqualTo(entry);
        assertThat(left.header(Headers.TICKET)).isEmpty();
        assertThat(leave(event, visitor).as(QueueStatus.class).state())
                .as("leaving again")
                .isEqualTo("LEFT");
        Answer afterLeaving = status(event, visitor);
        assertThat(afterLeaving.as(QueueStatus.class).state()).isEqualTo("LEFT");
        assertThat(afterLeaving.as(QueueStatus.class).position()).isNull();
        assertThat(afterLeaving.header(Headers.TICKET)).isEmpty();

        Answer rejoined = join(event, visitor);
        assertThat(rejoined.status()).as("a new place").isEqualTo(201);
        assertThat(rejoined.as(QueueStatus.class).receipt()).isNotEqualTo(entry);
        assertThat(rejoined.as(QueueStatus.class).position()).isEqualTo(new QueueStatus.Position(1, 1));
        assertThat(ticketOf(rejoined).orderKey()).isGreaterThan(ticketOf(joined).orderKey());

        assertProblem(leave(event, visitor()), ProblemType.NOT_IN_QUEUE);
        String offered = visitor();
        offer(
                event,
                join(event, offered).as(QueueStatus.class).receipt(),
                grant(),
                Instant.now().plusSeconds(60));
        assertProblem(leave(event, offered), ProblemType.STATE_CONFLICT);
    }

    @Test
    void anEventNeverPushedIsUnknownEverywhere() {
        String event = newEvent();
        String visitor = visitor();
        assertProblem(join(event, visitor), ProblemType.UNKNOWN_EVENT);
        assertProblem(status(event, visitor), ProblemType.UNKNOWN_EVENT);
        assertProblem(leave(event, visitor), ProblemType.UNKNOWN_EVENT);
        assertProblem(call("GET", "/events/" + event + "/status", null, null), ProblemType.UNKNOWN_EVENT);
        assertProblem(call("GET", path(QueuePaths.SNAPSHOT, event), null, null), ProblemType.UNKNOWN_EVENT);
        assertUnknownToTheCoordinator(event);
    }

    @Test
    void publicStatusShowsWhatTheCoordinatorPushedAndTheQueueLength() {
        String event = newEvent();
        Instant opensAt = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS);
        push(event, EventPhase.SCHEDULED, OperatingMode.QUEUEING, 1, "Doors at eight", opensAt, 0);
        join(event, visitor());
        join(event, visitor());
        Answer answer = call("GET", "/events/" + event + "/status", null, null);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("Cache-Control"))
                .hasValueSatisfying(c -> assertThat(c).contains("max-age=1"));
        PublicEventStatus status = answer.as(PublicEventStatus.class);
        assertThat(status.eventId()).isEqualTo(event);
        assertThat(status.phase()).isEqualTo(EventPhase.SCHEDULED);
        assertThat(status.mode()).isEqualTo(OperatingMode.QUEUEING);
        assertThat(status.announcement()).isEqualTo("Doors at eight");
        assertThat(status.commitment()).isEqualTo(COMMITMENT.toLowerCase());
        assertThat(status.seed()).isNull();
        assertThat(status.drawCompletedAt()).isNull();
        assertThat(status.presaleCount()).isNull();
        assertThat(status.opensAt()).isEqualTo(opensAt);
        assertThat(status.queueLength()).isEqualTo(new PublicEventStatus.QueueLength(2, 2));

        push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 1, null, opensAt, 1.5);
        PublicEventStatus opened =
                call("GET", "/events/" + event + "/status", null, null).as(PublicEventStatus.class);
        assertThat(opened.presaleCount())
                .as("the pre-sale group is frozen at opening")
                .isEqualTo(2);
        assertThat(opened.announcement())
                .as("a push without an announcement clears it")
                .isNull();
        assertThat(opened.admissionRatePerSecond()).isEqualTo(1.5);
    }

    /** The coordinator's signed mode (issue #28) passes through opaque, and a push without one leaves none behind. */
    @Test
    void theModeStatementPushedWithTheStateComesBackInTheSnapshot() {
        String event = newEvent();
        String statement = "eyJhbGciOiJFZERTQSJ9.eyJtb2RlIjoiQllQQVNTIn0.c2lnbmF0dXJl";
        Answer stored = call(
                "PUT",
                path(QueuePaths.EVENT, event),
                null,
                new EventPush()
                        .mode(OperatingMode.BYPASS)
                        .policy(ExpiredOfferPolicy.DROP)
                        .ordering(PresaleOrdering.FIFO)
                        .rate(1.0)
                        .afterPurchase(AfterPurchase.RELEASE)
                        .request()
                        .withModeStatement(statement));
        assertThat(stored.status()).as(stored.toString()).isEqualTo(200);
        assertThat(snapshot(event).mode()).isEqualTo(OperatingMode.BYPASS);
        assertThat(snapshot(event).modeStatement()).isEqualTo(statement);

        push(event, EventPhase.OPEN, OperatingMode.BYPASS, 1, null, null, 1.0);
        assertThat(snapshot(event).modeStatement()).isNull();
    }

    @Test
    void publicStatusPublishesTheEventsNamePolicyRoundAndSoldOutCategories() {
        String event = newEvent();
        Answer stored = call(
                "PUT",
                path(QueuePaths.EVENT, event),
                null,
                new EventPush()
                        .generation(3)
                        .scope(IdentityScope.ACCOUNT)
                        .policy(ExpiredOfferPolicy.DROP)
                        .ordering(PresaleOrdering.FIFO)
                        .rate(1.0)
                        .name("Spring tour, Hall A")
                        .afterPurchase(AfterPurchase.KEEP)
                        .soldOut(List.of("Floor", "Balcony", "Floor"))
                        .request());
        assertThat(stored.status()).as(stored.toString()).isEqualTo(200);
        EventStateView view = stored.as(EventStateView.class);
        assertThat(view.name()).isEqualTo("Spring tour, Hall A");
        assertThat(view.afterPurchase()).isEqualTo(AfterPurchase.KEEP);
        assertThat(view.soldOutCategories()).containsExactly("Floor", "Balcony");

        PublicEventStatus status =
                call("GET", "/events/" + event + "/status", null, null).as(PublicEventStatus.class);
        assertThat(status.name()).isEqualTo("Spring tour, Hall A");
        assertThat(status.policy())
                .isEqualTo(new PublicEventStatus.Policy(
                        PresaleOrdering.FIFO, ExpiredOfferPolicy.DROP, AfterPurchase.KEEP, IdentityScope.ACCOUNT));
        assertThat(status.saleGeneration()).isEqualTo(3);
        assertThat(status.soldOutCategories()).as("each category once").containsExactly("Floor", "Balcony");
        assertThat(snapshot(event).soldOutCategories()).containsExactly("Floor", "Balcony");

        push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 3, null, null, 1.0);
        PublicEventStatus defaults =
                call("GET", "/events/" + event + "/status", null, null).as(PublicEventStatus.class);
        assertThat(defaults.name()).as("a push without a name clears it").isNull();
        assertThat(defaults.policy().afterPurchase()).isEqualTo(AfterPurchase.DEFAULT);
        assertThat(defaults.soldOutCategories()).isEmpty();

        assertProblem(
                call(
                        "PUT",
                        path(QueuePaths.EVENT, event),
                        null,
                        "{\"phase\":\"OPEN\",\"saleGeneration\":3,\"afterPurchase\":\"SOMETIMES\"}"),
                ProblemType.MALFORMED_REQUEST);
        assertProblem(
                call(
                        "PUT",
                        path(QueuePaths.EVENT, event),
                        null,
                        "{\"phase\":\"OPEN\",\"saleGeneration\":3,\"soldOutCategories\":[\"<b>\"]}"),
                ProblemType.MALFORMED_REQUEST);
    }

    @Test
    void preSaleJoinsWaitWithoutAPositionUntilTheGroupIsDrawn() {
        String event = newEvent();
        push(event, EventPhase.SCHEDULED, OperatingMode.QUEUEING, 1, null, null, 0);
        String visitor = visitor();
        Answer joined = join(event, visitor);
        assertThat(joined.status()).isEqualTo(201);
        QueueStatus status = joined.as(QueueStatus.class);
        assertThat(status.phase()).isEqualTo(EventPhase.SCHEDULED);
        assertThat(status.state()).isEqualTo("WAITING");
        assertThat(status.position()).isNull();
        assertThat(status.estimatedWaitSeconds()).isNull();
        assertThat(ticketOf(joined).orderKey()).as("the draw gives the order").isZero();
        QueueSnapshot scheduled = snapshot(event);
        assertThat(scheduled.phase()).isEqualTo(EventPhase.SCHEDULED);
        assertThat(scheduled.drawComplete()).isFalse();
        assertThat(scheduled.presaleCount()).isNull();
        assertThat(scheduled.waiting()).isEqualTo(1);
        assertThat(scheduled.waitingBuckets()).isEmpty();

        push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 1, null, null, 1);
        QueueSnapshot opened = snapshot(event);
        assertThat(opened.phase()).isEqualTo(EventPhase.OPEN);
        assertThat(opened.drawComplete())
                .as("a pre-sale group waits for its draw")
                .isFalse();
        assertThat(opened.drawCompletedAt()).isNull();
        assertThat(opened.presaleCount()).isEqualTo(1);
        assertThat(status(event, visitor).as(QueueStatus.class).position()).isNull();
        assertProblem(
                call(
                        "POST",
                        path(QueuePaths.OFFERS, event),
                        null,
                        new OfferBatch(List.of(new Offer(
                                status.receipt(), grant(), Instant.now().plusSeconds(60))))),
                ProblemType.DRAW_INCOMPLETE);
    }

    @Test
    void snapshotBucketsBoundThePlaceOfEveryWaitingEntry() {
        String event = newEvent();
        push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 4, "Nearly there", null, 3.5);
        List<String> visitors = new ArrayList<>();
        List<QueueTicket> tickets = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            visitors.add(visitor());
            tickets.add(ticketOf(join(event, visitors.get(i))));
        }
        leave(event, visitors.get(2));
        String grant = grant();
        offer(event, tickets.get(0).entryId(), grant, Instant.now().plusSeconds(60));
        offer(event, tickets.get(1).entryId(), grant, Instant.now().plusSeconds(60));

        QueueSnapshot snapshot = snapshot(event);
        assertThat(snapshot.eventId()).isEqualTo(event);
        assertThat(snapshot.phase()).isEqualTo(EventPhase.OPEN);
        assertThat(snapshot.mode()).isEqualTo(OperatingMode.QUEUEING);
        assertThat(snapshot.announcement()).isEqualTo("Nearly there");
        assertThat(snapshot.saleGeneration()).isEqualTo(4);
        assertThat(snapshot.admissionRatePerSecond()).isEqualTo(3.5);
        assertThat(snapshot.offerWatermark()).isEqualTo(tickets.get(1).orderKey());
        assertThat(snapshot.drawComplete())
                .as("no pre-sale group: the order is final at opening")
                .isTrue();
        assertThat(snapshot.drawCompletedAt()).isNull();
        assertThat(snapshot.presaleCount()).isZero();
        assertThat(snapshot.waiting()).isEqualTo(22);
        assertThat(snapshot.generatedAt()).isNotNull();
        assertThat(snapshot.waitingBuckets())
                .allSatisfy(b -> assertThat(b.count()).isPositive());
        assertThat(snapshot.waitingBuckets().stream()
                        .mapToLong(WaitingBucket::count)
                        .sum())
                .isEqualTo(22);
        List<Long> maxima = snapshot.waitingBuckets().stream()
                .map(WaitingBucket::maxOrderKey)
                .toList();
        assertThat(maxima).isSorted().doesNotHaveDuplicates();

        long truth = 0;
        for (int i = 3; i < tickets.size(); i++) {
            long key = tickets.get(i).orderKey();
            long below = 0;
            long own = 0;
            for (WaitingBucket bucket : snapshot.waitingBuckets()) {
                if (bucket.maxOrderKey() < key) {
                    below += bucket.count();
                } else {
                    own = bucket.count();
                    break;
                }
            }
            assertThat(truth)
                    .as("entry %d: %d ahead, between %d and %d", i, truth, below, below + own - 1)
                    .isBetween(below, below + own - 1);
            assertThat(status(event, visitors.get(i)).as(QueueStatus.class).position())
                    .isEqualTo(QueueStatus.Position.around(truth));
            truth++;
        }
    }

    @Test
    void modeAndPhaseShowInStatusSnapshotAndWhoMayJoin() {
        String event = open();
        String inQueue = visitor();
        join(event, inQueue);
        join(event, visitor());

        push(event, EventPhase.OPEN, OperatingMode.PAUSED, 1, "Paused while payments recover", null, 2);
        QueueStatus paused = status(event, inQueue).as(QueueStatus.class);
        assertThat(paused.mode()).isEqualTo(OperatingMode.PAUSED);
        assertThat(paused.position()).isEqualTo(new QueueStatus.Position(0, 0));
        assertThat(paused.estimatedWaitSeconds()).as("no estimate while paused").isNull();
        assertThat(paused.announcement()).isEqualTo("Paused while payments recover");
        assertThat(snapshot(event).mode()).isEqualTo(OperatingMode.PAUSED);

        String offered = visitor();
        offer(
                event,
                join(event, offered).as(QueueStatus.class).receipt(),
                grant(),
                Instant.now().plusSeconds(60));
        push(event, EventPhase.OPEN, OperatingMode.SOLD_OUT, 1, null, null, 2);
        assertThat(status(event, offered).as(QueueStatus.class).offer())
                .as("sold out, an offer made before is not shown")
                .isNull();
        assertProblem(join(event, visitor()), ProblemType.SOLD_OUT);
        Answer rejoin = join(event, inQueue);
        assertThat(rejoin.status()).as("a visitor with a place keeps it").isEqualTo(200);
        assertThat(rejoin.as(QueueStatus.class).mode()).isEqualTo(OperatingMode.SOLD_OUT);
        assertThat(rejoin.as(QueueStatus.class).estimatedWaitSeconds()).isNull();

        push(event, EventPhase.ENDED, OperatingMode.QUEUEING, 1, null, null, 0);
        assertProblem(join(event, visitor()), ProblemType.EVENT_ENDED);
        assertThat(status(event, inQueue).as(QueueStatus.class).phase()).isEqualTo(EventPhase.ENDED);
        assertThat(snapshot(event).phase()).isEqualTo(EventPhase.ENDED);
    }

    @Test
    void livenessNamesTheEntriesThatAreNotWaitingForTheVisitorNamed() {
        String event = open();
        List<String> visitors = IntStream.range(0, 4).mapToObj(i -> visitor()).toList();
        List<String> entries = visitors.stream()
                .map(v -> join(event, v).as(QueueStatus.class).receipt())
                .toList();
        offer(event, entries.get(0), grant(), Instant.now().plusSeconds(60));
        leave(event, visitors.get(2));
        LivenessBatch batch = LivenessBatch.of(List.of(
                new LivenessBatch.Seen(entries.get(0), visitors.get(0)),
                new LivenessBatch.Seen(entries.get(1), visitors.get(1)),
                new LivenessBatch.Seen(entries.get(2), visitors.get(2)),
                new LivenessBatch.Seen(entries.get(3), visitors.get(0)),
                new LivenessBatch.Seen("zzzzzz", visitor())));
        Answer answer = call("POST", path(QueuePaths.LIVENESS, event), null, batch);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.as(LivenessResult.class).notWaiting())
                .as("offered, left, another visitor's, unknown")
                .containsExactlyInAnyOrder(entries.get(0), entries.get(2), entries.get(3), "zzzzzz");

        assertProblem(
                call("POST", path(QueuePaths.LIVENESS, event), null, "{\"seen\":[[\"" + entries.get(1) + "\"]]}"),
                ProblemType.MALFORMED_REQUEST);
        assertProblem(
                call(
                        "POST",
                        path(QueuePaths.LIVENESS, event),
                        null,
                        LivenessBatch.of(List.of(new LivenessBatch.Seen(entries.get(1), "not a visitor")))),
                ProblemType.MALFORMED_REQUEST);
        List<LivenessBatch.Seen> tooMany = Collections.nCopies(
                LivenessBatch.MAX_ENTRIES + 1, new LivenessBatch.Seen(entries.get(1), visitors.get(1)));
        assertProblem(
                call("POST", path(QueuePaths.LIVENESS, event), null, LivenessBatch.of(tooMany)),
                ProblemType.MALFORMED_REQUEST);
    }

    @Test
    void offersApplyOnceAndNameEntriesHeldElsewhere() {
        String event = open();
        String first = join(event, visitor()).as(QueueStatus.class).receipt();
        String leaving = visitor();
        String second = join(event, leaving).as(QueueStatus.class).receipt();
        leave(event, leaving);
        String grant = grant();
        Instant deadline = Instant.now().plusSeconds(60);
        assertThat(offer(event, first, grant, deadline)).isEqualTo(new OfferResult(first, "OFFERED", true));
        assertThat(offer(event, first, grant, deadline))
                .as("the same offer again")
                .isEqualTo(new OfferResult(first, "OFFERED", true));
        assertThat(offer(event, first, grant(), deadline))
                .as("held by another grant")
                .isEqualTo(new OfferResult(first, "OFFERED", false));
        assertThat(offer(event, second, grant, deadline)).isEqualTo(new OfferResult(second, "LEFT", false));
        assertThat(offer(event, "zzzzzz", grant, deadline)).isEqualTo(new OfferResult("zzzzzz", null, false));
    }

    @Test
    void aResentOfferMovesTheDeadlineLaterNeverEarlier() {
        String event = open();
        String visitor = visitor();
        String entry = join(event, visitor).as(QueueStatus.class).receipt();
        String grant = grant();
        Instant deadline = Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.SECONDS);
        offer(event, entry, grant, deadline);
        Instant extended = deadline.plusSeconds(30);
        assertThat(offer(event, entry, grant, extended))
                .as("the coordinator re-sends an offer a pause extended")
                .isEqualTo(new OfferResult(entry, "OFFERED", true));
        assertThat(status(event, visitor).as(QueueStatus.class).offer()).isEqualTo(new QueueStatus.Offer(extended));
        offer(event, entry, grant, deadline);
        assertThat(status(event, visitor).as(QueueStatus.class).offer())
                .as("never earlier")
                .isEqualTo(new QueueStatus.Offer(extended));
    }

    @Test
    void thePushGuardsThePhaseAndTheSaleGeneration() {
        String event = newEvent();
        Answer stored = push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 2, "Hello", null, 1);
        assertThat(stored.status()).as(stored.toString()).isEqualTo(200);
        EventStateView view = stored.as(EventStateView.class);
        assertThat(view.eventId()).isEqualTo(event);
        assertThat(view.phase()).isEqualTo(EventPhase.OPEN);
        assertThat(view.mode()).isEqualTo(OperatingMode.QUEUEING);
        assertThat(view.saleGeneration()).isEqualTo(2);
        assertThat(view.announcement()).isEqualTo("Hello");
        assertThat(view.commitment()).isEqualTo(COMMITMENT.toLowerCase());
        assertThat(view.identityScope()).isEqualTo(IdentityScope.BROWSER);
        assertThat(view.waiting()).isZero();

        assertProblem(
                push(event, EventPhase.SCHEDULED, OperatingMode.QUEUEING, 2, null, null, 1),
                ProblemType.PHASE_CONFLICT);
        assertProblem(
                push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 1, null, null, 1), ProblemType.STALE_GENERATION);
        assertProblem(
                call("PUT", path(QueuePaths.EVENT, event), null, "{\"phase\":\"HALF_OPEN\"}"),
                ProblemType.MALFORMED_REQUEST);
        assertThat(push(event, EventPhase.ENDED, OperatingMode.QUEUEING, 3, null, null, 0)
                        .as(EventStateView.class)
                        .phase())
                .isEqualTo(EventPhase.ENDED);
    }

    @Test
    void everyCallNeedsTheInternalCredential() {
        String event = open();
        for (String token : new String[] {null, "not-the-token"}) {
            assertProblem(
                    send("GET", path(QueuePaths.SNAPSHOT, event), token, null, null),
                    ProblemType.INTERNAL_CREDENTIAL_REQUIRED);
            assertProblem(
                    send("POST", "/events/" + event + "/queue", token, visitor(), "{}"),
                    ProblemType.INTERNAL_CREDENTIAL_REQUIRED);
        }
    }

    @Test
    void eachCallerIsHeldToItsOwnRoutes() {
        String event = open();
        QueueUnderTest queue = queue();
        assertProblem(
                send("POST", "/events/" + event + "/queue", queue.coordinatorCredential(), visitor(), "{}"),
                ProblemType.CALLER_NOT_ALLOWED);
        assertProblem(
                send("GET", path(QueuePaths.SNAPSHOT, event), queue.coordinatorCredential(), null, null),
                ProblemType.CALLER_NOT_ALLOWED);
        assertProblem(
                send("GET", "/internal/events/" + event + "/counts", queue.gatewayCredential(), null, null),
                ProblemType.CALLER_NOT_ALLOWED);
        assertProblem(
                send("DELETE", "/internal/events/" + event, queue.gatewayCredential(), null, null),
                ProblemType.CALLER_NOT_ALLOWED);
        assertThat(call("GET", "/internal/events/" + event + "/counts", null, null)
                        .status())
                .as("the event is still there")
                .isEqualTo(200);
    }

    // the coordinator's side: the event push

    @Test
    void aPushIsIdempotentAndAPhaseNeverGoesBack() {
        String event = newEvent();
        pushOk(event, EventPhase.SCHEDULED, 1);
        pushOk(event, EventPhase.SCHEDULED, 1);
        pushOk(event, EventPhase.OPEN, 1);
        pushOk(
                event,
                EventPhase.OPEN,
                OperatingMode.PAUSED,
                1,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                PresaleOrdering.RANDOM);
        pushOk(
                event,
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                1,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                PresaleOrdering.RANDOM);
        assertRefused(push(event, EventPhase.SCHEDULED, 1));
        pushOk(event, EventPhase.ENDED, 1);
        pushOk(event, EventPhase.ENDED, 1);
        assertRefused(push(event, EventPhase.OPEN, 1));
        assertRefused(push(event, EventPhase.SCHEDULED, 1));

        String neverOpened = newEvent();
        pushOk(neverOpened, EventPhase.SCHEDULED, 1);
        pushOk(neverOpened, EventPhase.ENDED, 1);
        assertRefused(push(neverOpened, EventPhase.OPEN, 1));
    }

    @Test
    void aPushOfAnOlderSaleGenerationIsStale() {
        String event = newEvent();
        pushOk(event, EventPhase.OPEN, 2);
        assertRefused(push(event, EventPhase.OPEN, 1));
        pushOk(event, EventPhase.OPEN, 2);
        pushOk(event, EventPhase.OPEN, 3);
        assertRefused(push(event, EventPhase.OPEN, 2));
        assertRefused(push(event, EventPhase.ENDED, 2));
        pushOk(event, EventPhase.ENDED, 3);
    }

    @Test
    void aMalformedPushIsRefusedAndStoresNothing() {
        String event = newEvent();
        assertRefused(call(
                "PUT",
                path(QueuePaths.EVENT, event),
                null,
                "{\"phase\":\"HALF_OPEN\",\"mode\":\"QUEUEING\",\"saleGeneration\":1,\"commitment\":\"" + COMMITMENT
                        + "\",\"identityScope\":\"BROWSER\",\"expiredOfferPolicy\":\"REQUEUE_ONCE\","
                        + "\"presaleOrdering\":\"RANDOM\",\"admissionRatePerSecond\":1.0,\"offerTtlSeconds\":60}"));
        assertRefused(call(
                "PUT",
                path(QueuePaths.EVENT, event),
                null,
                "{\"phase\":\"OPEN\",\"mode\":\"QUEUEING\",\"saleGeneration\":1,\"commitment\":\"not hex\","
                        + "\"identityScope\":\"BROWSER\",\"expiredOfferPolicy\":\"REQUEUE_ONCE\","
                        + "\"presaleOrdering\":\"RANDOM\",\"admissionRatePerSecond\":1.0,\"offerTtlSeconds\":60}"));
        assertUnknownToTheCoordinator(event);
    }

    // the pre-sale draw

    @Test
    void thePreSaleDrawOrdersTheGroupBySeedOnceAndForAll() {
        String event = newEvent();
        pushOk(event, EventPhase.SCHEDULED, 1);
        List<String> group = joinMany(event, 6);
        assertThat(candidates(event, 10)).as("no candidates before opening").isEmpty();
        assertCounts(event, 6, 0, 0, 0, 0, 0);
        assertThat(counts(event).oldestWaitSeconds())
                .as("the pre-sale group has no front yet")
                .isZero();
        assertRefused(draw(event, SEED));

        pushOk(event, EventPhase.OPEN, 1);
        String late = receipt(event, visitor());
        assertThat(candidates(event, 10)).as("no candidates before the draw").isEmpty();
        assertRefused(offers(event, new Offer(group.get(0), grant(), deadline())));
        assertRefused(draw(event, OTHER_SEED));

        assertThat(draw(event, SEED).as(DrawResult.class)).isEqualTo(new DrawResult(6, true));
        List<Candidate> drawn = candidates(event, 10);
        List<String> expected = new ArrayList<>(group);
        expected.sort(Comparator.comparing(entry -> hmac(SEED, entry), Arrays::compareUnsigned));
        expected.add(late);
        assertThat(drawn).extracting(Candidate::entryId).containsExactlyElementsOf(expected);
        assertThat(drawn).extracting(Candidate::orderKey).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);

        assertThat(draw(event, SEED).as(DrawResult.class)).as("a repeat").isEqualTo(new DrawResult(6, true));
        assertThat(draw(event, SEED.toUpperCase(Locale.ROOT)).as(DrawResult.class))
                .as("hex in either case")
                .isEqualTo(new DrawResult(6, true));
        assertThat(candidates(event, 10)).isEqualTo(drawn);
        assertRefused(draw(event, OTHER_SEED));
        Answer revealed = call(
                "PUT",
                path(QueuePaths.EVENT, event),
                null,
                new EventPush()
                        .seed(SEED)
                        // both sides take the coordinator's push with a join gate
                        .joinGate(new JoinGate(100, 5000))
                        .request());
        assertThat(revealed.as(EventStateView.class).seed()).isEqualTo(SEED);
        assertCounts(event, 7, 0, 0, 0, 0, 0);
        assertThat(counts(event).joins()).isEqualTo(7);
    }

    @Test
    void aFifoDrawKeepsJoinOrder() {
        String event = newEvent();
        pushOk(
                event,
                EventPhase.SCHEDULED,
                OperatingMode.QUEUEING,
                1,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                PresaleOrdering.FIFO);
        List<String> group = joinMany(event, 4);
        pushOk(
                event,
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                1,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                PresaleOrdering.FIFO);
        assertThat(draw(event, SEED).as(DrawResult.class)).isEqualTo(new DrawResult(4, true));
        assertThat(candidates(event, 10))
                .extracting(Candidate::entryId, Candidate::orderKey)
                .containsExactly(IntStream.range(0, 4)
                        .mapToObj(i -> Tuple.tuple(group.get(i), i + 1L))
                        .toArray(Tuple[]::new));
    }

    @Test
    void withoutAPreSaleGroupNothingWaitsForTheDraw() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        List<String> entries = joinMany(event, 3);
        assertThat(candidates(event, 10)).extracting(Candidate::entryId).containsExactlyElementsOf(entries);
        assertThat(offer(event, entries.get(0), grant()))
                .extracting(OfferResult::state, OfferResult::applied)
                .containsExactly("OFFERED", true);
        assertThat(draw(event, SEED).as(DrawResult.class)).isEqualTo(new DrawResult(0, true));
        assertThat(candidates(event, 10))
                .extracting(Candidate::entryId)
                .containsExactlyElementsOf(entries.subList(1, 3));
    }

    @Test
    void aPreSaleVisitorWhoLeftAndCameBackKeepsTheirEntry() {
        String event = newEvent();
        pushOk(event, EventPhase.SCHEDULED, 1);
        String visitor = visitor();
        String entry = receipt(event, visitor);
        receipt(event, visitor());
        left(event, visitor);
        assertCounts(event, 1, 0, 0, 0, 1, 0);
        assertThat(receipt(event, visitor)).as("no second ticket for the draw").isEqualTo(entry);
        assertCounts(event, 2, 0, 0, 0, 0, 0);
        assertThat(counts(event).joins()).isEqualTo(2);
        pushOk(event, EventPhase.OPEN, 1);
        assertThat(draw(event, SEED).as(DrawResult.class)).isEqualTo(new DrawResult(2, true));
    }

    // candidates and offers

    @Test
    void candidatesAreTheNextWaitingEntriesInOrderAndStayUntilOffered() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        List<String> visitors = IntStream.range(0, 5).mapToObj(i -> visitor()).toList();
        List<String> entries = visitors.stream().map(v -> receipt(event, v)).toList();

        List<Candidate> first = candidates(event, 3);
        assertThat(first).extracting(Candidate::entryId).containsExactlyElementsOf(entries.subList(0, 3));
        assertThat(first).extracting(Candidate::visitor).containsExactlyElementsOf(visitors.subList(0, 3));
        assertThat(first).extracting(Candidate::orderKey).isSorted().doesNotHaveDuplicates();
        assertThat(candidates(event, 3)).as("not removed").isEqualTo(first);
        assertThat(candidates(event, 100)).extracting(Candidate::entryId).containsExactlyElementsOf(entries);
        assertThat(counts(event).oldestWaitSeconds()).isNotNull().isBetween(0L, 60L);

        left(event, visitors.get(1));
        assertThat(candidates(event, 3))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(0), entries.get(2), entries.get(3));
        offer(event, entries.get(0), grant());
        assertThat(candidates(event, 3))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(2), entries.get(3), entries.get(4));
        assertCounts(event, 3, 1, 0, 0, 1, 0);
    }

    @Test
    void aLaneHoldsItsMembersInJoinOrderApartFromTheGeneralLane() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        List<String> visitors = IntStream.range(0, 5).mapToObj(i -> visitor()).toList();
        List<String> entries = visitors.stream().map(v -> receipt(event, v)).toList();

        // the fourth redeems first, the second later: the second stands ahead in the lane
        LaneMoveResult moved = moveToLane(event, visitors.get(3), "presale").as(LaneMoveResult.class);
        assertThat(moved.entryId()).isEqualTo(entries.get(3));
        assertThat(moved.lane()).isEqualTo("presale");
        assertThat(moved.moved()).isTrue();
        assertThat(moveToLane(event, visitors.get(1), "presale")
                        .as(LaneMoveResult.class)
                        .moved())
                .isTrue();
        assertThat(moveToLane(event, visitors.get(1), "presale")
                        .as(LaneMoveResult.class)
                        .moved())
                .as("a repeat changes nothing")
                .isFalse();

        assertThat(candidates(event, "presale", 10))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(1), entries.get(3));
        assertThat(candidates(event, 10))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(0), entries.get(2), entries.get(4));
        assertThat(candidates(event, "members", 10)).isEmpty();

        offer(event, entries.get(1), grant());
        assertThat(candidates(event, "presale", 10))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(3));
        // an offered place moves nowhere
        assertProblem(moveToLane(event, visitors.get(1), "members"), ProblemType.STATE_CONFLICT);
        assertProblem(moveToLane(event, visitor(), "members"), ProblemType.NOT_IN_QUEUE);
        assertCounts(event, 4, 1, 0, 0, 0, 0);
    }

    @Test
    void aCallAsksForOneToAThousandEntries() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String entry = receipt(event, visitor());
        assertRefused(askCandidates(event, 0));
        assertRefused(askCandidates(event, 1001));
        assertThat(candidates(event, 1000)).hasSize(1);
        assertRefused(call("POST", path(QueuePaths.OFFERS, event), null, new OfferBatch(List.of())));
        String grant = grant();
        assertRefused(offers(event, new Offer(entry, grant, deadline()), new Offer(entry, grant, deadline())));
        assertCounts(event, 1, 0, 0, 0, 0, 0);
    }

    @Test
    void aBatchOfOffersAppliesEachOnceAndNamesEntriesHeldElsewhere() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String first = receipt(event, visitor());
        String second = receipt(event, visitor());
        String leaving = visitor();
        String left = receipt(event, leaving);
        left(event, leaving);
        String g1 = grant();
        String g2 = grant();
        String g3 = grant();

        List<OfferResult> results = offers(
                        event,
                        new Offer(first, g1, deadline()),
                        new Offer(second, g2, deadline()),
                        new Offer(left, g3, deadline()),
                        new Offer("zzzzzz", g3, deadline()))
                .as(OfferResults.class)
                .results();
        assertThat(results)
                .containsExactly(
                        new OfferResult(first, "OFFERED", true),
                        new OfferResult(second, "OFFERED", true),
                        new OfferResult(left, "LEFT", false),
                        new OfferResult("zzzzzz", null, false));
        assertThat(offer(event, first, g1))
                .as("the same offer again")
                .isEqualTo(new OfferResult(first, "OFFERED", true));
        assertThat(offer(event, first, g3))
                .as("held by another grant")
                .isEqualTo(new OfferResult(first, "OFFERED", false));
        assertCounts(event, 0, 2, 0, 0, 1, 0);

        assertThat(transitioned(event, first, TransitionTarget.ACTIVE, g1)).isEqualTo("ACTIVE");
        assertThat(offer(event, first, g1))
                .as("the offer again once claimed")
                .isEqualTo(new OfferResult(first, "ACTIVE", true));
        assertThat(offer(event, first, g2)).isEqualTo(new OfferResult(first, "ACTIVE", false));
        assertCounts(event, 0, 1, 1, 0, 1, 0);
    }

    // transitions

    @Test
    void claimAndCompletionMoveTheEntryAndRepeatHarmlessly() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String entry = receipt(event, visitor());
        String grant = grant();
        assertRefused(transition(event, entry, TransitionTarget.ACTIVE, grant));
        offer(event, entry, grant);

        assertRefused(transition(event, entry, TransitionTarget.ACTIVE, grant()));
        assertRefused(transition(event, entry, TransitionTarget.COMPLETED, grant));
        assertCounts(event, 0, 1, 0, 0, 0, 0);
        assertMovesAndRepeats(event, entry, TransitionTarget.ACTIVE, grant, "ACTIVE");
        assertCounts(event, 0, 0, 1, 0, 0, 0);
        assertRefused(transition(event, entry, TransitionTarget.OFFER_EXPIRED, grant));
        assertMovesAndRepeats(event, entry, TransitionTarget.COMPLETED, grant, "COMPLETED");
        assertCounts(event, 0, 0, 0, 1, 0, 0);
        assertRefused(transition(event, entry, TransitionTarget.EXPIRED, grant));
        assertRefused(transition(event, entry, TransitionTarget.ACTIVE, grant));
        assertCounts(event, 0, 0, 0, 1, 0, 0);
    }

    @Test
    void anEndedSessionOrAWithdrawnOfferExpiresTheEntry() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String g1 = grant();
        String g2 = grant();
        String shopping = claimed(event, g1);
        String offered = offered(event, g2);

        assertMovesAndRepeats(event, shopping, TransitionTarget.EXPIRED, g1, "EXPIRED");
        assertThat(transitioned(event, offered, TransitionTarget.EXPIRED, g2)).isEqualTo("EXPIRED");
        assertCounts(event, 0, 0, 0, 0, 0, 2);
        assertRefused(transition(event, shopping, TransitionTarget.COMPLETED, g1));
        assertExpiries(event, 0, 0, 0);
    }

    @Test
    void anUnclaimedOfferGoesToTheBackOnceThenExpires() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String g1 = grant();
        String first = offered(event, g1);
        String second = receipt(event, visitor());

        assertMovesAndRepeats(event, first, TransitionTarget.OFFER_EXPIRED, g1, "WAITING");
        assertRefused(transition(event, first, TransitionTarget.ACTIVE, g1));
        String third = receipt(event, visitor());
        List<Candidate> order = candidates(event, 10);
        assertThat(order).extracting(Candidate::entryId).containsExactly(second, first, third);
        assertThat(order).extracting(Candidate::orderKey).isSorted().doesNotHaveDuplicates();
        assertCounts(event, 3, 0, 0, 0, 0, 0);
        assertExpiries(event, 1, 1, 1);

        String g2 = grant();
        assertThat(offer(event, first, g2)).isEqualTo(new OfferResult(first, "OFFERED", true));
        assertRefused(transition(event, first, TransitionTarget.OFFER_EXPIRED, g1));
        assertMovesAndRepeats(event, first, TransitionTarget.OFFER_EXPIRED, g2, "EXPIRED");
        assertThat(candidates(event, 10)).extracting(Candidate::entryId).containsExactly(second, third);
        assertCounts(event, 2, 0, 0, 0, 0, 1);
        assertExpiries(event, 2, 1, 2);
    }

    @Test
    void aWithdrawnOfferWaitsAgainInItsOwnPlaceAndIsOfferedFirst() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String g1 = grant();
        String g2 = grant();
        String first = offered(event, g1);
        String shopping = claimed(event, g2);
        String later = receipt(event, visitor());

        assertRefused(transition(event, first, TransitionTarget.OFFER_WITHDRAWN, g2));
        assertMovesAndRepeats(event, first, TransitionTarget.OFFER_WITHDRAWN, g1, "WAITING");
        assertRefused(transition(event, shopping, TransitionTarget.OFFER_WITHDRAWN, g2));
        List<Candidate> order = candidates(event, 10);
        assertThat(order).extracting(Candidate::entryId).containsExactly(first, later);
        assertThat(order.get(0).orderKey())
                .as("its own place")
                .isLessThan(order.get(1).orderKey());
        assertCounts(event, 2, 0, 1, 0, 0, 0);
        assertExpiries(event, 0, 0, 0);

        String g3 = grant();
        assertThat(offer(event, first, g3)).isEqualTo(new OfferResult(first, "OFFERED", true));
        assertRefused(transition(event, first, TransitionTarget.OFFER_WITHDRAWN, g1));
        assertThat(transitioned(event, first, TransitionTarget.OFFER_EXPIRED, g3))
                .as("no requeue was spent")
                .isEqualTo("WAITING");
        assertThat(candidates(event, 10)).extracting(Candidate::entryId).containsExactly(later, first);
    }

    @Test
    void underDropAnUnclaimedOfferExpiresAtOnce() {
        String event = open(ExpiredOfferPolicy.DROP);
        String g1 = grant();
        String g2 = grant();
        String unclaimed = offered(event, g1);
        String claimed = claimed(event, g2);
        String leaving = visitor();
        receipt(event, leaving);
        left(event, leaving);

        assertMovesAndRepeats(event, unclaimed, TransitionTarget.OFFER_EXPIRED, g1, "EXPIRED");
        assertThat(offer(event, unclaimed, g1))
                .as("the queue keeps the grant it offered last")
                .isEqualTo(new OfferResult(unclaimed, "EXPIRED", true));
        assertRefused(transition(event, claimed, TransitionTarget.OFFER_EXPIRED, g2));
        assertThat(candidates(event, 10)).isEmpty();
        assertCounts(event, 0, 0, 1, 0, 1, 1);
        assertExpiries(event, 1, 0, 2);
        QueueCounts counts = counts(event);
        assertThat(counts.joins()).isEqualTo(3);
        assertThat(counts.oldestWaitSeconds()).as("nobody waits").isZero();
    }

    @Test
    void aVisitorWhoLeftIsNoCandidateAndRejoinsAtTheBack() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String visitor = visitor();
        String entry = receipt(event, visitor);
        String other = receipt(event, visitor());
        assertThat(receipt(event, visitor)).as("one entry per visitor").isEqualTo(entry);
        left(event, visitor);
        left(event, visitor);
        assertCounts(event, 1, 0, 0, 0, 1, 0);
        assertThat(candidates(event, 10)).extracting(Candidate::entryId).containsExactly(other);
        String grant = grant();
        assertThat(offer(event, entry, grant)).isEqualTo(new OfferResult(entry, "LEFT", false));
        assertRefused(transition(event, entry, TransitionTarget.ACTIVE, grant));

        String again = receipt(event, visitor);
        assertThat(again).as("a new entry").isNotEqualTo(entry);
        assertThat(candidates(event, 10)).extracting(Candidate::entryId).containsExactly(other, again);
        assertCounts(event, 2, 0, 0, 0, 1, 0);
        QueueCounts counts = counts(event);
        assertThat(counts.joins()).isEqualTo(3);
        assertThat(counts.abandoned()).isEqualTo(1);
    }

    // the drop of an archived or deleted event (docs/operating/event-lifecycle.md)

    @Test
    void aDroppedEventIsUnknownTakesNoJoinAndRefusesAPushForAWhile() {
        String event = newEvent();
        pushOk(event, EventPhase.SCHEDULED, 1);
        dropOk(event, true);

        assertUnknownToTheCoordinator(event);
        assertProblem(join(event, visitor()), ProblemType.UNKNOWN_EVENT);
        assertRefused(push(event, EventPhase.SCHEDULED, 1));
        assertUnknownToTheCoordinator(event);
        dropOk(event, true);
    }

    @Test
    void aDropOnlyIfEmptyIsRefusedOnceSomeoneJoinedAndChangesNothing() {
        String event = newEvent();
        pushOk(event, EventPhase.SCHEDULED, 1);
        receipt(event, visitor());

        assertRefused(drop(event, true));
        assertCounts(event, 1, 0, 0, 0, 0, 0);

        dropOk(event, false);
        assertUnknownToTheCoordinator(event);
    }

    @Test
    void aDropOfAnEventNeverPushedSucceeds() {
        String event = newEvent();
        dropOk(event, true);
        assertUnknownToTheCoordinator(event);
    }

    @Test
    void aJoinAgainstADropOnlyIfEmptyEitherKeepsItsPlaceOrFindsNoEvent() throws Exception {
        for (int round = 0; round < 15; round++) {
            String event = newEvent();
            pushOk(event, EventPhase.SCHEDULED, 1);
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<Boolean> joined = CompletableFuture.supplyAsync(() -> {
                awaitBarrier(start);
                try {
                    receipt(event, visitor());
                    return true;
                } catch (RuntimeException | AssertionError refused) {
                    return false;
                }
            });
            CompletableFuture<Boolean> dropped = CompletableFuture.supplyAsync(() -> {
                awaitBarrier(start);
                Answer drop = drop(event, true);
                if (drop.status() == 204) {
                    return true;
                }
                assertRefused(drop);
                return false;
            });
            assertThat(List.of(joined.get(), dropped.get()))
                    .as("exactly one of the join and the drop took effect")
                    .containsExactlyInAnyOrder(true, false);
            if (joined.get()) {
                assertCounts(event, 1, 0, 0, 0, 0, 0);
            } else {
                assertUnknownToTheCoordinator(event);
            }
        }
    }

    private static void awaitBarrier(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    // what the queue does not know

    @Test
    void anUnknownEntryIsRefusedOrNamedWithoutAState() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        receipt(event, visitor());
        assertRefused(transition(event, "zzzzzz", TransitionTarget.ACTIVE, grant()));
        assertRefused(transition(event, "not an entry", TransitionTarget.ACTIVE, grant()));
        assertThat(offer(event, "zzzzzz", grant())).isEqualTo(new OfferResult("zzzzzz", null, false));
        assertRefused(offers(event, new Offer("not an entry", grant(), deadline())));
        assertCounts(event, 1, 0, 0, 0, 0, 0);
    }

    // the coordinator's side, as the gateway's scenarios drive it

    private String open() {
        String event = newEvent();
        Answer pushed = push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 1, null, null, 2.0);
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
        return event;
    }

    private Answer push(
            String event,
            EventPhase phase,
            OperatingMode mode,
            long generation,
            String announcement,
            Instant opensAt,
            double rate) {
        return call(
                "PUT",
                path(QueuePaths.EVENT, event),
                null,
                new EventPush()
                        .phase(phase)
                        .mode(mode)
                        .announcement(announcement)
                        .generation(generation)
                        .rate(rate)
                        .opensAt(opensAt)
                        .request());
    }

    private OfferResult offer(String event, String entry, String grant, Instant expiresAt) {
        Answer answer = call(
                "POST",
                path(QueuePaths.OFFERS, event),
                null,
                new OfferBatch(List.of(new Offer(entry, grant, expiresAt))));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<OfferResult> results = answer.as(OfferResults.class).results();
        assertThat(results).hasSize(1);
        return results.get(0);
    }

    // the gateway's side

    private Answer join(String event, String visitor) {
        return call("POST", "/events/" + event + "/queue", visitor, "{}");
    }

    private Answer status(String event, String visitor) {
        return call("GET", "/events/" + event + "/queue/status", visitor, null);
    }

    private Answer leave(String event, String visitor) {
        return call("DELETE", "/events/" + event + "/queue", visitor, null);
    }

    private QueueSnapshot snapshot(String event) {
        Answer answer = call("GET", path(QueuePaths.SNAPSHOT, event), null, null);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.as(QueueSnapshot.class);
    }

    private QueueTicket ticketOf(Answer answer) {
        String ticket = answer.header(Headers.TICKET).orElseThrow(() -> new AssertionError("no ticket: " + answer));
        return QueueTicketCodec.of(HmacKey.fromBase64(queue().ticketKey())).decode(ticket);
    }

    // the coordinator's calls

    private String open(ExpiredOfferPolicy policy) {
        String event = newEvent();
        pushOk(event, EventPhase.OPEN, OperatingMode.QUEUEING, 1, policy, PresaleOrdering.RANDOM);
        return event;
    }

    private Answer push(String event, EventPhase phase, long generation) {
        return pushPolicies(
                event,
                phase,
                OperatingMode.QUEUEING,
                generation,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                PresaleOrdering.RANDOM);
    }

    private void pushOk(String event, EventPhase phase, long generation) {
        Answer pushed = push(event, phase, generation);
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
    }

    private void pushOk(
            String event,
            EventPhase phase,
            OperatingMode mode,
            long generation,
            ExpiredOfferPolicy policy,
            PresaleOrdering ordering) {
        Answer pushed = pushPolicies(event, phase, mode, generation, policy, ordering);
        assertThat(pushed.status()).as(pushed.toString()).isEqualTo(200);
    }

    private Answer pushPolicies(
            String event,
            EventPhase phase,
            OperatingMode mode,
            long generation,
            ExpiredOfferPolicy policy,
            PresaleOrdering ordering) {
        return call(
                "PUT",
                path(QueuePaths.EVENT, event),
                null,
                new EventPush()
                        .phase(phase)
                        .mode(mode)
                        .generation(generation)
                        .policy(policy)
                        .ordering(ordering)
                        .request());
    }

    private Answer drop(String event, boolean onlyIfEmpty) {
        return call(
                "DELETE",
                path(QueuePaths.EVENT, event) + "?" + QueuePaths.DROP_IF_EMPTY + "=" + onlyIfEmpty,
                null,
                null);
    }

    private void dropOk(String event, boolean onlyIfEmpty) {
        Answer dropped = drop(event, onlyIfEmpty);
        assertThat(dropped.status()).as(dropped.toString()).isEqualTo(204);
    }

    private Answer draw(String event, String seed) {
        return call("POST", path(QueuePaths.DRAW, event), null, new DrawRequest(seed));
    }

    private Answer askCandidates(String event, int limit) {
        return call(
                "GET",
                path(QueuePaths.CANDIDATES, event) + "?" + QueuePaths.CANDIDATES_LIMIT + "=" + limit,
                null,
                null);
    }

    private List<Candidate> candidates(String event, int limit) {
        return askCandidates(event, limit).as(Candidates.class).entries();
    }

    private List<Candidate> candidates(String event, String lane, int limit) {
        String query = "?" + QueuePaths.CANDIDATES_LIMIT + "=" + limit + "&" + QueuePaths.CANDIDATES_LANE + "=" + lane;
        return call("GET", path(QueuePaths.CANDIDATES, event) + query, null, null)
                .as(Candidates.class)
                .entries();
    }

    private Answer moveToLane(String event, String visitor, String lane) {
        return call("POST", path(QueuePaths.LANE, event), null, new LaneMove(visitor, null, lane));
    }

    private Answer offers(String event, Offer... offers) {
        return call("POST", path(QueuePaths.OFFERS, event), null, new OfferBatch(List.of(offers)));
    }

    private OfferResult offer(String event, String entry, String grant) {
        return offer(event, entry, grant, deadline());
    }

    private Answer transition(String event, String entry, TransitionTarget to, String grant) {
        String entryPath = URLEncoder.encode(entry, StandardCharsets.UTF_8).replace("+", "%20");
        return call(
                "POST",
                path(QueuePaths.TRANSITION, event).replace("{entryId}", entryPath),
                null,
                EntryTransition.of(to, grant));
    }

    /** The entry's state after the transition, which must be taken. */
    private String transitioned(String event, String entry, TransitionTarget to, String grant) {
        EntryTransitionResult result = transition(event, entry, to, grant).as(EntryTransitionResult.class);
        assertThat(result.entryId()).isEqualTo(entry);
        return result.state();
    }

    private QueueCounts counts(String event) {
        return call("GET", path(QueuePaths.COUNTS, event), null, null).as(QueueCounts.class);
    }

    /** A visitor joins (the gateway's join); returns the entry id, the visitor's receipt. */
    private String receipt(String event, String visitor) {
        Answer joined = join(event, visitor);
        assertThat(joined.status()).as(joined.toString()).isIn(200, 201);
        return joined.as(QueueStatus.class).receipt();
    }

    /** The visitor leaves (the gateway's leave), which must be taken. */
    private void left(String event, String visitor) {
        Answer left = leave(event, visitor);
        assertThat(left.status()).as(left.toString()).isEqualTo(200);
    }

    private List<String> joinMany(String event, int visitors) {
        return IntStream.range(0, visitors)
                .mapToObj(i -> receipt(event, visitor()))
                .toList();
    }

    /** The transition answers {@code state}, and its repeat answers the same and changes nothing. */
    private void assertMovesAndRepeats(String event, String entry, TransitionTarget to, String grant, String state) {
        assertThat(transitioned(event, entry, to, grant)).isEqualTo(state);
        assertThat(transitioned(event, entry, to, grant)).as("a repeat").isEqualTo(state);
    }

    /** A new visitor's entry, offered with {@code grant}. */
    private String offered(String event, String grant) {
        String entry = receipt(event, visitor());
        assertThat(offer(event, entry, grant)).isEqualTo(new OfferResult(entry, "OFFERED", true));
        return entry;
    }

    /** A new visitor's entry, offered with {@code grant} and claimed. */
    private String claimed(String event, String grant) {
        String entry = offered(event, grant);
        assertThat(transitioned(event, entry, TransitionTarget.ACTIVE, grant)).isEqualTo("ACTIVE");
        return entry;
    }

    private void assertCounts(
            String event, long waiting, long offered, long active, long completed, long left, long expired) {
        QueueCounts counts = counts(event);
        assertThat(List.of(
                        counts.waiting(),
                        counts.offered(),
                        counts.active(),
                        counts.completed(),
                        counts.left(),
                        counts.expired()))
                .as("waiting, offered, active, completed, left, expired of %s", counts)
                .containsExactly(waiting, offered, active, completed, left, expired);
        assertThat(counts.oldestWaitSeconds()).isNotNull();
        assertThat(counts.offersExpired()).isNotNull();
        assertThat(counts.requeued()).isNotNull();
    }

    /** Offers that expired unclaimed, requeues, and the abandoned: visitors who left plus offers expired. */
    private void assertExpiries(String event, long offersExpired, long requeued, long abandoned) {
        QueueCounts counts = counts(event);
        assertThat(List.of(counts.offersExpired(), counts.requeued(), counts.abandoned()))
                .as("offersExpired, requeued, abandoned of %s", counts)
                .containsExactly(offersExpired, requeued, abandoned);
    }

    /** Every call of the coordinator about the event is refused. */
    private void assertUnknownToTheCoordinator(String event) {
        assertRefused(askCandidates(event, 1));
        assertRefused(call("GET", path(QueuePaths.COUNTS, event), null, null));
        assertRefused(draw(event, SEED));
        assertRefused(offers(event, new Offer("1", grant(), deadline())));
        assertRefused(transition(event, "1", TransitionTarget.ACTIVE, grant()));
    }

    /** A refusal the coordinator does not retry: a problem with a status asking again will not change. */
    private static void assertRefused(Answer answer) {
        assertThat(answer.status()).as(answer.toString()).isIn(REFUSALS);
        assertThat(answer.header("Content-Type"))
                .as(answer.toString())
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    }

    private static Instant deadline() {
        return Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
    }

    /** The draw's rank of an entry: HMAC-SHA256(seed, entry id), compared as unsigned bytes (docs/design/architecture.md). */
    private static byte[] hmac(String seedHex, String entryId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(HexFormat.of().parseHex(seedHex), "HmacSHA256"));
            return mac.doFinal(entryId.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static String sha256Hex(String seedHex) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(HexFormat.of().parseHex(seedHex));
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException(ex);
        }
    }

    // HTTP

    private static String newEvent() {
        return "qc-" + UUID.randomUUID().toString().substring(0, 13);
    }

    private static String visitor() {
        return VisitorId.random().value();
    }

    private static String grant() {
        return UUID.randomUUID().toString();
    }

    private static String path(String template, String event) {
        return template.replace("{eventId}", event);
    }

    private Answer call(String method, String path, String visitor, Object body) {
        return send(method, path, queue().credentialFor(method, path), visitor, body);
    }

    /** @param body a record (written as JSON), a JSON text, or null */
    private Answer send(String method, String path, String internalToken, String visitor, Object body) {
        String json = body == null || body instanceof String ? (String) body : JSON.writeValueAsString(body);
        HttpRequest.Builder request = HTTP.request(method, queue().baseUrl().resolve(path), json);
        if (internalToken != null) {
            request.header(Headers.INTERNAL, internalToken);
        }
        if (visitor != null) {
            request.header(Headers.VISITOR, visitor);
        }
        HttpResponse<String> response = HTTP.send(request);
        return new Answer(response.statusCode(), response.headers().map(), response.body());
    }

    private static void assertProblem(Answer answer, ProblemType problem) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(problem.status());
        assertThat(answer.header("Content-Type"))
                .as(answer.toString())
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode body = JSON.readTree(answer.body());
        assertThat(body.get("type").asString())
                .as(answer.toString())
                .isEqualTo(problem.type().toString());
        assertThat(body.get("status").asInt()).isEqualTo(problem.status());
    }

    /** An answer: status, headers (any case), body. */
    record Answer(int status, java.util.Map<String, List<String>> headers, String body) {

        Optional<String> header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream())
                    .findFirst();
        }

        <T> T as(Class<T> type) {
            assertThat(status).as(toString()).isBetween(200, 299);
            return JSON.readValue(body, type);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    /**
     * The coordinator's event push as this suite sends it: open, queueing, generation 1, the suite's commitment, browser
     * identity, requeue-once, random pre-sale order, 2 admissions/s, 60 s offers, no gate; a scenario changes what it
     * is about.
     */
    private static final class EventPush {
        private EventPhase phase = EventPhase.OPEN;
        private OperatingMode mode = OperatingMode.QUEUEING;
        private String announcement;
        private long generation = 1;
        private String seed;
        private IdentityScope scope = IdentityScope.BROWSER;
        private ExpiredOfferPolicy policy = ExpiredOfferPolicy.REQUEUE_ONCE;
        private PresaleOrdering ordering = PresaleOrdering.RANDOM;
        private double rate = 2.0;
        private Instant opensAt;
        private JoinGate joinGate = JoinGate.OPEN;
        private String name;
        private AfterPurchase afterPurchase = AfterPurchase.DEFAULT;
        private List<String> soldOut = List.of();

        EventPush phase(EventPhase value) {
            phase = value;
            return this;
        }

        EventPush mode(OperatingMode value) {
            mode = value;
            return this;
        }

        EventPush announcement(String value) {
            announcement = value;
            return this;
        }

        EventPush generation(long value) {
            generation = value;
            return this;
        }

        EventPush seed(String value) {
            seed = value;
            return this;
        }

        EventPush scope(IdentityScope value) {
            scope = value;
            return this;
        }

        EventPush policy(ExpiredOfferPolicy value) {
            policy = value;
            return this;
        }

        EventPush ordering(PresaleOrdering value) {
            ordering = value;
            return this;
        }

        EventPush rate(double value) {
            rate = value;
            return this;
        }

        EventPush opensAt(Instant value) {
            opensAt = value;
            return this;
        }

        EventPush joinGate(JoinGate value) {
            joinGate = value;
            return this;
        }

        EventPush name(String value) {
            name = value;
            return this;
        }

        EventPush afterPurchase(AfterPurchase value) {
            afterPurchase = value;
            return this;
        }

        EventPush soldOut(List<String> value) {
            soldOut = value;
            return this;
        }

        EventUpdateRequest request() {
            return EventUpdateRequest.of(
                    phase,
                    mode,
                    announcement,
                    generation,
                    COMMITMENT,
                    seed,
                    scope,
                    policy,
                    ordering,
                    rate,
                    60,
                    opensAt,
                    joinGate,
                    name,
                    afterPurchase,
                    soldOut,
                    null);
        }
    }
}
