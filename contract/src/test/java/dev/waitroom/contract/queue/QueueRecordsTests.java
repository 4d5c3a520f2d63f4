package dev.waitroom.contract.queue;

import static dev.waitroom.contract.queue.WireJson.JSON;
import static dev.waitroom.contract.queue.WireJson.json;
import static dev.waitroom.contract.queue.WireJson.roundTrips;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every record of the queue-service's internal API against the JSON the services exchanged before these records:
 * Jackson reads the sample into the record and writes the record back as the same JSON, so a renamed field or a
 * changed type breaks here first.
 */
class QueueRecordsTests {

    private static final String VISITOR = "AAAAAAAAAAAAAAAAAAAAAA";

    private static final String GRANT = "5f0c6a3e-2b1d-4c8e-9a7f-1e2d3c4b5a69";

    @Test
    void eventUpdateIsTheCoordinatorsPush() {
        // RestClientQueueDirectoryTests' push
        String pushed =
                json("{'phase':'OPEN','mode':'QUEUEING','announcement':'','saleGeneration':1,'commitment':'c0ffee',"
                        + "'seed':null,'identityScope':'BROWSER','expiredOfferPolicy':'REQUEUE_ONCE','presaleOrdering':'RANDOM',"
                        + "'admissionRatePerSecond':2.5,'offerTtlSeconds':30,'opensAt':'2026-06-01T10:00:00Z',"
                        + "'maxJoinsPerSecond':0.0,'proofOfWorkDifficulty':0,'name':null,'afterPurchase':'RELEASE',"
                        + "'soldOutCategories':[],'pace':{'perSecond':2.4,'variance':3.1,'recentPerSecond':2.2,"
                        + "'buckets':12,'floorPerSecond':1.5,'resumed':false},'modeStatement':'a.b.c',"
                        + "'admissionHold':null}");
        EventUpdateRequest request = EventUpdateRequest.of(
                        EventPhase.OPEN,
                        OperatingMode.QUEUEING,
                        "",
                        1,
                        "c0ffee",
                        null,
                        IdentityScope.BROWSER,
                        ExpiredOfferPolicy.REQUEUE_ONCE,
                        PresaleOrdering.RANDOM,
                        2.5,
                        30,
                        Instant.parse("2026-06-01T10:00:00Z"),
                        JoinGate.OPEN,
                        null,
                        AfterPurchase.DEFAULT,
                        null,
                        new Pace(2.4, 3.1, 2.2, 12, 1.5, false))
                .withModeStatement("a.b.c");
        roundTrips(pushed, request);
        assertThat(request.validated()).isSameAs(request);
        assertThat(request.phaseValue()).isEqualTo(EventPhase.OPEN);
    }

    @Test
    void eventUpdateNeedsOnlyAPhaseAndDefaultsTheRest() {
        EventUpdateRequest minimal = JSON.readValue(json("{'phase':'SCHEDULED'}"), EventUpdateRequest.class)
                .validated();
        assertThat(minimal.saleGeneration()).isNull();
        assertThat(minimal.admissionRatePerSecond()).isNull();
        assertThat(minimal.modeValue()).isEqualTo(OperatingMode.QUEUEING);
        assertThat(minimal.identityScopeValue()).isEqualTo(IdentityScope.BROWSER);
        assertThat(minimal.expiredOfferPolicyValue()).isEqualTo(ExpiredOfferPolicy.REQUEUE_ONCE);
        assertThat(minimal.presaleOrderingValue()).isEqualTo(PresaleOrdering.RANDOM);
    }

    @Test
    void eventUpdateNamesTheFirstMalformedField() {
        assertMalformed("{}", "phase is required");
        assertMalformed("{'phase':'LATER'}", "unknown phase");
        assertMalformed("{'phase':'OPEN','mode':'queueing'}", "unknown mode");
        assertMalformed("{'phase':'OPEN','presaleOrdering':'LOTTERY'}", "unknown presaleOrdering");
        assertMalformed(
                "{'phase':'OPEN','admissionRatePerSecond':-1}", "admissionRatePerSecond is a finite number >= 0");
        assertMalformed("{'phase':'OPEN','commitment':'not hex'}", "commitment is hex");
        assertMalformed("{'phase':'OPEN','seed':'0'}", "seed is hex");
        assertMalformed("{'phase':'OPEN','offerTtlSeconds':-5}", "saleGeneration and offerTtlSeconds are >= 0");
        String paceNumbers =
                "pace.perSecond, pace.variance, pace.recentPerSecond and pace.floorPerSecond are finite numbers >= 0";
        assertMalformed("{'phase':'OPEN','pace':" + pace("-1", "0", "0", "6") + "}", paceNumbers);
        assertMalformed("{'phase':'OPEN','pace':" + pace("1", "-0.5", "1", "6") + "}", paceNumbers);
        assertMalformed("{'phase':'OPEN','pace':" + pace("1", "1", "1e309", "6") + "}", paceNumbers);
        assertMalformed("{'phase':'OPEN','pace':" + pace("1", "1", "1", "61") + "}", "pace.buckets is 0..60");
        assertMalformed("{'phase':'OPEN','pace':" + pace("1", "1", "1", "-1") + "}", "pace.buckets is 0..60");
        assertMalformed(
                "{'phase':'LATER','announcement':'" + "a".repeat(1001) + "'}",
                "announcement is limited to 1000 characters");
        assertThat(JSON.readValue(json("{'phase':'OPEN','commitment':'','seed':''}"), EventUpdateRequest.class)
                        .validated()
                        .commitment())
                .isEmpty();
    }

    private static String pace(String perSecond, String variance, String recent, String buckets) {
        return "{'perSecond':" + perSecond + ",'variance':" + variance + ",'recentPerSecond':" + recent + ",'buckets':"
                + buckets + ",'floorPerSecond':0,'resumed':false}";
    }

    private static void assertMalformed(String body, String detail) {
        EventUpdateRequest request = JSON.readValue(json(body), EventUpdateRequest.class);
        assertThatThrownBy(request::validated).isInstanceOfSatisfying(MalformedValueException.class, e -> {
            assertThat(e.problem()).isEqualTo(ProblemType.MALFORMED_REQUEST);
            assertThat(e.getMessage()).isEqualTo(detail);
        });
    }

    @Test
    void eventStateViewIsTheStoredState() {
        String stored =
                json("{'eventId':'e1','phase':'OPEN','mode':'PAUSED','announcement':'Back soon','saleGeneration':2,"
                        + "'commitment':'c0ffee','seed':null,'identityScope':'ACCOUNT','expiredOfferPolicy':'DROP',"
                        + "'presaleOrdering':'FIFO','admissionRatePerSecond':2.5,'offerTtlSeconds':30,"
                        + "'opensAt':'2026-06-01T10:00:00Z','presaleCount':12,'drawCompletedAt':'2026-06-01T10:00:01Z',"
                        + "'offerWatermark':7,'waiting':5,'joinGate':{'maxJoinsPerSecond':0.0,'proofOfWorkDifficulty':0},"
                        + "'name':null,'afterPurchase':'RELEASE','soldOutCategories':[],'pace':null}");
        roundTrips(
                stored,
                new EventStateView(
                        "e1",
                        EventPhase.OPEN,
                        OperatingMode.PAUSED,
                        "Back soon",
                        2,
                        "c0ffee",
                        null,
                        IdentityScope.ACCOUNT,
                        ExpiredOfferPolicy.DROP,
                        PresaleOrdering.FIFO,
                        2.5,
                        30,
                        Instant.parse("2026-06-01T10:00:00Z"),
                        12L,
                        Instant.parse("2026-06-01T10:00:01Z"),
                        7,
                        5,
                        JoinGate.OPEN,
                        null,
                        null,
                        null,
                        null));
    }

    @Test
    void aRenamedOrRetypedFieldFailsTheRoundTrip() {
        assertThatThrownBy(() -> roundTrips(json("{'seedHex':'ab'}"), new DrawRequest("ab")))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> roundTrips(json("{'presaleCount':'12','completed':true}"), new DrawResult(12, true)))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void drawSendsTheSeedAndAnswersTheCount() {
        roundTrips(json("{'seed':'" + "ab".repeat(32) + "'}"), new DrawRequest("ab".repeat(32)));
        roundTrips(json("{'presaleCount':12,'completed':true}"), new DrawResult(12, true));
    }

    @Test
    void candidatesAreEntriesInPolicyOrder() {
        roundTrips(
                json("{'entries':[{'entryId':'en-1','visitor':'" + VISITOR + "','orderKey':7}]}"),
                new Candidates(List.of(new Candidate("en-1", VISITOR, 7))));
        assertThat(JSON.readValue("{}", Candidates.class).entries()).isEmpty();
    }

    @Test
    void offersGoOutInABatchAndComeBackWithResults() {
        // AdmissionTests' batch
        roundTrips(
                json("{'offers':[{'entryId':'1','grantId':'g1','expiresAt':'2030-01-01T00:00:00Z'}]}"),
                new OfferBatch(List.of(new Offer("1", "g1", Instant.parse("2030-01-01T00:00:00Z")))));
        roundTrips(
                json("{'results':[{'entryId':'1','state':'OFFERED','applied':true},"
                        + "{'entryId':'2','state':null,'applied':false}]}"),
                new OfferResults(List.of(new OfferResult("1", "OFFERED", true), new OfferResult("2", null, false))));
        // RestClientQueueDirectoryTests' reply, without 'applied'
        assertThat(JSON.readValue(json("{'results':[{'entryId':'en-1','state':'OFFERED'}]}"), OfferResults.class)
                        .results())
                .containsExactly(new OfferResult("en-1", "OFFERED", null));
        assertThat(JSON.readValue("{}", OfferResults.class).results()).isEmpty();
    }

    @Test
    void transitionsNameTheTargetAndTheGrant() {
        EntryTransition transition = EntryTransition.of(TransitionTarget.OFFER_EXPIRED, GRANT);
        roundTrips(json("{'to':'OFFER_EXPIRED','grantId':'" + GRANT + "'}"), transition);
        assertThat(transition.target()).isEqualTo(TransitionTarget.OFFER_EXPIRED);
        roundTrips(json("{'entryId':'en-1','state':'WAITING'}"), new EntryTransitionResult("en-1", "WAITING"));
        for (String bad : Arrays.asList(null, "", "active", "LEFT")) {
            assertThatThrownBy(() -> new EntryTransition(bad, GRANT).target())
                    .isInstanceOf(MalformedValueException.class)
                    .hasMessage("unknown transition target");
        }
    }

    @Test
    void countsCarryEveryCounter() {
        roundTrips(
                json("{'waiting':5,'offered':1,'active':2,'completed':3,'left':0,'expired':1,'joins':12,"
                        + "'oldestWaitSeconds':40,'abandoned':0,'offersExpired':1,'requeued':0}"),
                new QueueCounts(5, 1, 2, 3, 0, 1, 12, 40L, 0, 1L, 0L));
        // RestClientQueueDirectoryTests' reply, from before offersExpired and requeued
        assertThat(JSON.readValue(
                        json("{'waiting':5,'offered':1,'active':2,'completed':3,'left':0,'expired':1,"
                                + "'joins':12,'oldestWaitSeconds':40,'abandoned':0}"),
                        QueueCounts.class))
                .isEqualTo(new QueueCounts(5, 1, 2, 3, 0, 1, 12, 40L, 0, null, null));
    }

    @Test
    void livenessBatchesArePairsOfEntryAndVisitor() {
        LivenessBatch batch = LivenessBatch.of(
                List.of(new LivenessBatch.Seen("1", VISITOR), new LivenessBatch.Seen("a", "BBBBBBBBBBBBBBBBBBBBBB")));
        roundTrips(json("{'seen':[['1','" + VISITOR + "'],['a','BBBBBBBBBBBBBBBBBBBBBB']]}"), batch);
        assertThat(batch.validated().seen().stream()
                        .map(LivenessBatch.Seen::fromPair)
                        .toList())
                .containsExactly(
                        new LivenessBatch.Seen("1", VISITOR), new LivenessBatch.Seen("a", "BBBBBBBBBBBBBBBBBBBBBB"));
        roundTrips(json("{'notWaiting':['a']}"), new LivenessResult(List.of("a")));
        assertThat(JSON.readValue("{}", LivenessResult.class).notWaiting()).isEmpty();
    }

    @Test
    void livenessBatchesAreBoundedAndEachItemIsAPair() {
        assertThatThrownBy(() -> new LivenessBatch(null).validated()).isInstanceOf(MalformedValueException.class);
        List<List<String>> full = java.util.Collections.nCopies(LivenessBatch.MAX_ENTRIES, List.of("1", VISITOR));
        assertThat(new LivenessBatch(full).validated().seen()).hasSize(150);
        List<List<String>> over = java.util.Collections.nCopies(LivenessBatch.MAX_ENTRIES + 1, List.of("1", VISITOR));
        assertThatThrownBy(() -> new LivenessBatch(over).validated()).hasMessage("at most 150 entries per batch");
        for (List<String> bad : Arrays.asList(
                null,
                List.of("1"),
                List.of("1", VISITOR, "x"),
                Arrays.asList(null, VISITOR),
                Arrays.asList("1", null))) {
            assertThatThrownBy(() -> LivenessBatch.Seen.fromPair(bad))
                    .isInstanceOf(MalformedValueException.class)
                    .hasMessage("each seen item is [entryId, visitorId]");
        }
    }

    @Test
    void snapshotIsWhatTheEdgeAnswersFrom() {
        String served = json("{'eventId':'e1','phase':'OPEN','mode':'QUEUEING','announcement':null,'saleGeneration':1,"
                + "'admissionRatePerSecond':2.5,'offerWatermark':7,'drawCompletedAt':null,'drawComplete':true,"
                + "'presaleCount':0,'waiting':3,'waitingBuckets':[{'maxOrderKey':9,'count':2},{'maxOrderKey':12,'count':1}],"
                + "'generatedAt':'2026-06-01T10:00:05Z','joinGate':{'maxJoinsPerSecond':0.0,'proofOfWorkDifficulty':0},'soldOutCategories':[],"
                + "'pace':{'perSecond':2.4,'variance':3.1,'recentPerSecond':2.2,'buckets':12,'floorPerSecond':1.5,'resumed':true},"
                + "'modeStatement':null,'admissionHold':null}");
        QueueSnapshot snapshot = new QueueSnapshot(
                "e1",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                2.5,
                7L,
                null,
                true,
                0L,
                3L,
                List.of(new WaitingBucket(9, 2), new WaitingBucket(12, 1)),
                Instant.parse("2026-06-01T10:00:05Z"),
                null,
                null,
                new Pace(2.4, 3.1, 2.2, 12, 1.5, true),
                null,
                null);
        roundTrips(served, snapshot);
        assertThat(snapshot.orderFinalFor(Instant.parse("2026-06-01T09:00:00Z")))
                .isTrue();
        // A snapshot from before offerWatermark, drawComplete and waiting still reads.
        QueueSnapshot older = JSON.readValue(
                json("{'eventId':'e1','phase':'SCHEDULED','mode':'QUEUEING',"
                        + "'saleGeneration':1,'admissionRatePerSecond':0}"),
                QueueSnapshot.class);
        assertThat(older.offerWatermark()).isNull();
        assertThat(older.waitingBuckets()).isEmpty();
        assertThat(older.joinGate()).isEqualTo(JoinGate.OPEN);
        assertThat(older.orderFinalFor(Instant.parse("2026-06-01T09:00:00Z"))).isFalse();
    }

    @Test
    void aTicketHoldsAFinalOrderOnlyWhenIssuedAfterTheDraw() {
        Instant drawn = Instant.parse("2026-06-01T10:00:00Z");
        QueueSnapshot afterDraw = new QueueSnapshot(
                "e1",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                1,
                0L,
                drawn,
                true,
                4L,
                0L,
                null,
                drawn,
                null,
                null,
                null,
                null,
                null);
        assertThat(afterDraw.orderFinalFor(drawn.minusSeconds(1))).isFalse();
        assertThat(afterDraw.orderFinalFor(drawn.plusSeconds(1))).isTrue();
        QueueSnapshot scheduled = new QueueSnapshot(
                "e1",
                EventPhase.SCHEDULED,
                OperatingMode.QUEUEING,
                null,
                1,
                1,
                0L,
                null,
                true,
                null,
                0L,
                List.of(),
                drawn,
                null,
                null,
                null,
                null,
                null);
        assertThat(scheduled.orderFinalFor(drawn)).isFalse();
    }

    @Test
    void visitorStatusReadsAlikeFromQueueAndEdge() {
        // StatusTests: 152 ahead at 2 offers a second, measured steady
        QueueStatus.Position ahead = QueueStatus.Position.around(152);
        Pace steady = new Pace(2, 2, 2, 60, 1, false);
        QueueStatus waiting = new QueueStatus(
                "WAITING",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                ahead,
                QueueStatus.EstimatedWait.of(ahead, 2, steady),
                null,
                8,
                null,
                "4gfk",
                null,
                null);
        roundTrips(
                json("{'state':'WAITING','phase':'OPEN','mode':'QUEUEING','position':{'aheadMin':150,'aheadMax':159},"
                        + "'estimatedWaitSeconds':{'min':50,'max':88,'caveat':null},'offer':null,'pollAfterSeconds':8,'announcement':null,"
                        + "'receipt':'4gfk','admissionHold':null,'lane':'general'}"),
                waiting);
        roundTrips(
                json("{'state':'WAITING','phase':'OPEN','mode':'QUEUEING','position':{'aheadMin':150,'aheadMax':159},"
                        + "'estimatedWaitSeconds':null,'offer':null,'pollAfterSeconds':45,'announcement':null,"
                        + "'receipt':'4gfk','admissionHold':{'cause':'PLANNED_PAUSE','reason':'Seat map update',"
                        + "'until':'2026-06-01T14:00:00Z'},'lane':'general'}"),
                new QueueStatus(
                        "WAITING",
                        EventPhase.OPEN,
                        OperatingMode.QUEUEING,
                        ahead,
                        null,
                        null,
                        45,
                        null,
                        "4gfk",
                        AdmissionHold.of(
                                AdmissionHold.Cause.PLANNED_PAUSE,
                                "Seat map update",
                                Instant.parse("2026-06-01T14:00:00Z")),
                        null));
        roundTrips(
                json("{'state':'OFFERED','phase':'OPEN','mode':'QUEUEING','position':null,'estimatedWaitSeconds':null,"
                        + "'offer':{'expiresAt':'2026-06-01T10:00:30Z'},'pollAfterSeconds':2,'announcement':'Hurry',"
                        + "'receipt':'4gfk','admissionHold':null,'lane':'general'}"),
                new QueueStatus(
                        "OFFERED",
                        EventPhase.OPEN,
                        OperatingMode.QUEUEING,
                        null,
                        null,
                        new QueueStatus.Offer(Instant.parse("2026-06-01T10:00:30Z")),
                        2,
                        "Hurry",
                        "4gfk",
                        null,
                        null));
    }

    @Test
    void positionsAreCoarseBandsThatHoldTheTruth() {
        assertThat(QueueStatus.Position.around(0)).isEqualTo(new QueueStatus.Position(0, 0));
        assertThat(QueueStatus.Position.around(99)).isEqualTo(new QueueStatus.Position(99, 99));
        assertThat(QueueStatus.Position.around(100)).isEqualTo(new QueueStatus.Position(100, 109));
        assertThat(QueueStatus.Position.around(12_345)).isEqualTo(new QueueStatus.Position(12_000, 12_999));
        assertThat(QueueStatus.Position.covering(95, 1_234)).isEqualTo(new QueueStatus.Position(95, 1_299));
        for (long exact = 0; exact < 5_000; exact += 7) {
            QueueStatus.Position band = QueueStatus.Position.around(exact);
            assertThat(exact).isBetween(band.aheadMin(), band.aheadMax());
        }
        assertThatThrownBy(() -> new QueueStatus.Position(5, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThat(QueueStatus.EstimatedWait.of(ahead(10), 0))
                .as("paused: no made-up numbers")
                .isNull();
        assertThat(QueueStatus.EstimatedWait.of(ahead(10), Double.POSITIVE_INFINITY))
                .isNull();
        assertThat(QueueStatus.EstimatedWait.of(ahead(0), 10))
                .as("the front, nothing measured: a few seconds, said to be measuring")
                .isEqualTo(new QueueStatus.EstimatedWait(0, 8, EstimateCaveat.MEASURING));
    }

    private static QueueStatus.Position ahead(long exact) {
        return QueueStatus.Position.around(exact);
    }

    @Test
    void publicEventStatusIsTheSameForEveryVisitor() {
        // as test-support's FakeQueueService writes it
        String status = json("{'eventId':'e1','phase':'SCHEDULED','mode':'QUEUEING','announcement':'Opens at ten',"
                + "'admissionRatePerSecond':0.0,'queueLength':{'min':3,'max':3},"
                + "'commitment':'3f1c0e8a9b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e','seed':null,"
                + "'drawCompletedAt':null,'presaleCount':null,'opensAt':'2026-06-01T10:00:00Z','name':'Spring tour',"
                + "'policy':{'presaleOrdering':'FIFO','expiredOfferPolicy':'DROP','afterPurchase':'KEEP',"
                + "'identityScope':'BROWSER'},'saleGeneration':2,'soldOutCategories':['Floor']}");
        roundTrips(
                status,
                new PublicEventStatus(
                        "e1",
                        EventPhase.SCHEDULED,
                        OperatingMode.QUEUEING,
                        "Opens at ten",
                        0,
                        new PublicEventStatus.QueueLength(3, 3),
                        "3f1c0e8a9b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e",
                        null,
                        null,
                        null,
                        Instant.parse("2026-06-01T10:00:00Z"),
                        "Spring tour",
                        new PublicEventStatus.Policy(
                                PresaleOrdering.FIFO,
                                ExpiredOfferPolicy.DROP,
                                AfterPurchase.KEEP,
                                IdentityScope.BROWSER),
                        2L,
                        List.of("Floor")));
        PublicEventStatus older = JSON.readValue(
                json("{'eventId':'e1','phase':'OPEN','mode':'QUEUEING','admissionRatePerSecond':0}"),
                PublicEventStatus.class);
        assertThat(older.saleGeneration())
                .as("a status from before sale rounds is the first round")
                .isEqualTo(1L);
        assertThat(older.soldOutCategories()).isEmpty();
    }

    @Test
    void pathsAreTheRoutesBothSidesUse() {
        assertThat(QueuePaths.EVENT).isEqualTo("/internal/events/{eventId}");
        assertThat(List.of(
                        QueuePaths.DRAW,
                        QueuePaths.CANDIDATES,
                        QueuePaths.OFFERS,
                        QueuePaths.TRANSITION,
                        QueuePaths.COUNTS,
                        QueuePaths.LIVENESS,
                        QueuePaths.SNAPSHOT))
                .containsExactly(
                        "/internal/events/{eventId}/draw",
                        "/internal/events/{eventId}/candidates",
                        "/internal/events/{eventId}/offers",
                        "/internal/events/{eventId}/entries/{entryId}/transition",
                        "/internal/events/{eventId}/counts",
                        "/internal/events/{eventId}/liveness",
                        "/internal/events/{eventId}/snapshot");
        assertThat(QueuePaths.CANDIDATES_LIMIT).isEqualTo("limit");
    }
}
