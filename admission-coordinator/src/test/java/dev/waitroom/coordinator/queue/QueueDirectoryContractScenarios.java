package dev.waitroom.coordinator.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.coordinator.queue.QueueDirectory.Offer;
import dev.waitroom.tokens.VisitorId;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The queue-service's internal API as the coordinator relies on it (docs/reference/contracts.md, "queue-service internal API"),
 * driven through {@link QueueDirectory} alone: the event push with its phase and generation guards, the pre-sale draw,
 * candidates, offers, every entry transition and the counts after each. One suite for the coordinator's in-memory
 * stand-in ({@code InMemoryQueueDirectory}) and for the real queue-service behind {@code RestClientQueueDirectory}:
 * where they differ, the stand-in is wrong. Entries come from the visitor's side of the queue (join, leave), a hook
 * each implementation provides. Each scenario uses a fresh event.
 */
abstract class QueueDirectoryContractScenarios {

    /** The coordinator's draw seed (hex of 32 bytes) and its published commitment. */
    private static final String SEED = "5eed".repeat(16);

    private static final String COMMITMENT = EventManagement.commitment(SEED);

    private static final String OTHER_SEED = "0ddba11".repeat(9) + "0";

    /** The queue under test. */
    protected abstract QueueDirectory queue();

    /** A visitor joins the event's queue (the gateway's join); returns the entry id, the visitor's receipt. */
    protected abstract String join(String eventId, VisitorId visitor);

    /** The visitor leaves the event's queue (the gateway's leave). */
    protected abstract void leave(String eventId, VisitorId visitor);

    // the event push

    @Test
    void aPushIsIdempotentAndAPhaseNeverGoesBack() {
        String event = newEvent();
        push(event, EventPhase.SCHEDULED, 1);
        push(event, EventPhase.SCHEDULED, 1);
        push(event, EventPhase.OPEN, 1);
        push(event, EventPhase.OPEN, OperatingMode.PAUSED, 1, ExpiredOfferPolicy.REQUEUE_ONCE, PresaleOrdering.RANDOM);
        push(
                event,
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                1,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                PresaleOrdering.RANDOM);
        assertRefused(() -> push(event, EventPhase.SCHEDULED, 1));
        push(event, EventPhase.ENDED, 1);
        push(event, EventPhase.ENDED, 1);
        assertRefused(() -> push(event, EventPhase.OPEN, 1));
        assertRefused(() -> push(event, EventPhase.SCHEDULED, 1));

        String neverOpened = newEvent();
        push(neverOpened, EventPhase.SCHEDULED, 1);
        push(neverOpened, EventPhase.ENDED, 1);
        assertRefused(() -> push(neverOpened, EventPhase.OPEN, 1));
    }

    @Test
    void aPushOfAnOlderSaleGenerationIsStale() {
        String event = newEvent();
        push(event, EventPhase.OPEN, 2);
        assertRefused(() -> push(event, EventPhase.OPEN, 1));
        push(event, EventPhase.OPEN, 2);
        push(event, EventPhase.OPEN, 3);
        assertRefused(() -> push(event, EventPhase.OPEN, 2));
        assertRefused(() -> push(event, EventPhase.ENDED, 2));
        push(event, EventPhase.ENDED, 3);
    }

    @Test
    void aMalformedPushIsRefused() {
        String event = newEvent();
        assertRefused(() -> queue().putEventState(
                        EventId.of(event),
                        new EventUpdateRequest(
                                "HALF_OPEN",
                                "QUEUEING",
                                null,
                                1L,
                                COMMITMENT,
                                null,
                                "BROWSER",
                                "REQUEUE_ONCE",
                                "RANDOM",
                                1.0,
                                60L,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null)));
        assertRefused(() -> queue().putEventState(
                        EventId.of(event),
                        new EventUpdateRequest(
                                "OPEN",
                                "QUEUEING",
                                null,
                                1L,
                                "not hex",
                                null,
                                "BROWSER",
                                "REQUEUE_ONCE",
                                "RANDOM",
                                1.0,
                                60L,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null)));
        assertUnknown(event);
    }

    // the pre-sale draw

    @Test
    void thePreSaleDrawOrdersTheGroupBySeedOnceAndForAll() {
        String event = newEvent();
        push(event, EventPhase.SCHEDULED, 1);
        List<String> group = joinMany(event, 6);
        assertThat(queue().candidates(EventId.of(event), 10))
                .as("no candidates before opening")
                .isEmpty();
        assertCounts(event, 6, 0, 0, 0, 0, 0);
        assertThat(queue().counts(EventId.of(event)).oldestWaitSeconds())
                .as("the pre-sale group has no front yet")
                .isZero();
        assertRefused(() -> queue().draw(EventId.of(event), SEED));

        push(event, EventPhase.OPEN, 1);
        String late = join(event, VisitorId.random());
        assertThat(queue().candidates(EventId.of(event), 10))
                .as("no candidates before the draw")
                .isEmpty();
        assertRefused(
                () -> queue().offer(EventId.of(event), List.of(new Offer(group.get(0), GrantId.random(), deadline()))));
        assertRefused(() -> queue().draw(EventId.of(event), OTHER_SEED));

        assertThat(queue().draw(EventId.of(event), SEED)).isEqualTo(new DrawResult(6, true));
        List<Candidate> drawn = queue().candidates(EventId.of(event), 10);
        List<String> expected = new ArrayList<>(group);
        expected.sort(Comparator.comparing(entry -> hmac(SEED, entry), Arrays::compareUnsigned));
        expected.add(late);
        assertThat(drawn).extracting(Candidate::entryId).containsExactlyElementsOf(expected);
        assertThat(drawn).extracting(Candidate::orderKey).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);

        assertThat(queue().draw(EventId.of(event), SEED)).as("a repeat").isEqualTo(new DrawResult(6, true));
        assertThat(queue().draw(EventId.of(event), SEED.toUpperCase()))
                .as("hex in either case")
                .isEqualTo(new DrawResult(6, true));
        assertThat(queue().candidates(EventId.of(event), 10)).isEqualTo(drawn);
        assertRefused(() -> queue().draw(EventId.of(event), OTHER_SEED));
        queue().putEventState(
                        EventId.of(event),
                        EventUpdateRequest.of(
                                EventPhase.OPEN,
                                OperatingMode.QUEUEING,
                                null,
                                1,
                                COMMITMENT,
                                SEED,
                                IdentityScope.BROWSER,
                                ExpiredOfferPolicy.REQUEUE_ONCE,
                                PresaleOrdering.RANDOM,
                                2.0,
                                60,
                                null,
                                // both sides take the coordinator's push with a join gate
                                new JoinGate(100, 5000),
                                null,
                                AfterPurchase.DEFAULT,
                                null,
                                null));
        assertCounts(event, 7, 0, 0, 0, 0, 0);
        assertThat(queue().counts(EventId.of(event)).joins()).isEqualTo(7);
    }

    @Test
    void aFifoDrawKeepsJoinOrder() {
        String event = newEvent();
        push(
                event,
                EventPhase.SCHEDULED,
                OperatingMode.QUEUEING,
                1,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                PresaleOrdering.FIFO);
        List<String> group = joinMany(event, 4);
        push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 1, ExpiredOfferPolicy.REQUEUE_ONCE, PresaleOrdering.FIFO);
        assertThat(queue().draw(EventId.of(event), SEED)).isEqualTo(new DrawResult(4, true));
        assertThat(queue().candidates(EventId.of(event), 10))
                .extracting(Candidate::entryId, Candidate::orderKey)
                .containsExactly(IntStream.range(0, 4)
                        .mapToObj(i -> org.assertj.core.groups.Tuple.tuple(group.get(i), i + 1L))
                        .toArray(org.assertj.core.groups.Tuple[]::new));
    }

    @Test
    void withoutAPreSaleGroupNothingWaitsForTheDraw() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        List<String> entries = joinMany(event, 3);
        assertThat(queue().candidates(EventId.of(event), 10))
                .extracting(Candidate::entryId)
                .containsExactlyElementsOf(entries);
        assertThat(offer(event, entries.get(0), GrantId.random()))
                .extracting(OfferResult::state, OfferResult::applied)
                .containsExactly("OFFERED", true);
        assertThat(queue().draw(EventId.of(event), SEED)).isEqualTo(new DrawResult(0, true));
        assertThat(queue().candidates(EventId.of(event), 10))
                .extracting(Candidate::entryId)
                .containsExactlyElementsOf(entries.subList(1, 3));
    }

    @Test
    void aPreSaleVisitorWhoLeftAndCameBackKeepsTheirEntry() {
        String event = newEvent();
        push(event, EventPhase.SCHEDULED, 1);
        VisitorId visitor = VisitorId.random();
        String entry = join(event, visitor);
        join(event, VisitorId.random());
        leave(event, visitor);
        assertCounts(event, 1, 0, 0, 0, 1, 0);
        assertThat(join(event, visitor)).as("no second ticket for the draw").isEqualTo(entry);
        assertCounts(event, 2, 0, 0, 0, 0, 0);
        assertThat(queue().counts(EventId.of(event)).joins()).isEqualTo(2);
        push(event, EventPhase.OPEN, 1);
        assertThat(queue().draw(EventId.of(event), SEED)).isEqualTo(new DrawResult(2, true));
    }

    // candidates and offers

    @Test
    void candidatesAreTheNextWaitingEntriesInOrderAndStayUntilOffered() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        List<VisitorId> visitors =
                IntStream.range(0, 5).mapToObj(i -> VisitorId.random()).toList();
        List<String> entries = visitors.stream().map(v -> join(event, v)).toList();

        List<Candidate> first = queue().candidates(EventId.of(event), 3);
        assertThat(first).extracting(Candidate::entryId).containsExactlyElementsOf(entries.subList(0, 3));
        assertThat(first).extracting(Candidate::visitor).containsExactlyElementsOf(visitors.subList(0, 3));
        assertThat(first).extracting(Candidate::orderKey).isSorted().doesNotHaveDuplicates();
        assertThat(queue().candidates(EventId.of(event), 3)).as("not removed").isEqualTo(first);
        assertThat(queue().candidates(EventId.of(event), 100))
                .extracting(Candidate::entryId)
                .containsExactlyElementsOf(entries);
        assertThat(queue().counts(EventId.of(event)).oldestWaitSeconds())
                .isNotNull()
                .isBetween(0L, 60L);

        leave(event, visitors.get(1));
        assertThat(queue().candidates(EventId.of(event), 3))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(0), entries.get(2), entries.get(3));
        offer(event, entries.get(0), GrantId.random());
        assertThat(queue().candidates(EventId.of(event), 3))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(2), entries.get(3), entries.get(4));
        assertCounts(event, 3, 1, 0, 0, 1, 0);
    }

    @Test
    void aLaneHoldsItsMembersInJoinOrderApartFromTheGeneralLane() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        List<VisitorId> visitors =
                IntStream.range(0, 5).mapToObj(i -> VisitorId.random()).toList();
        List<String> entries = visitors.stream().map(v -> join(event, v)).toList();

        // the fourth redeems first, the second later: the second stands ahead in the lane
        LaneMoveResult moved = queue().moveToLane(EventId.of(event), visitors.get(3), null, "presale");
        assertThat(moved.entryId()).isEqualTo(entries.get(3));
        assertThat(moved.lane()).isEqualTo("presale");
        assertThat(moved.moved()).isTrue();
        queue().moveToLane(EventId.of(event), visitors.get(1), null, "presale");
        assertThat(queue().moveToLane(EventId.of(event), visitors.get(1), null, "presale")
                        .moved())
                .as("a repeat changes nothing")
                .isFalse();

        assertThat(queue().candidates(EventId.of(event), "presale", 10))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(1), entries.get(3));
        assertThat(queue().candidates(EventId.of(event), 10))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(0), entries.get(2), entries.get(4));
        assertThat(queue().candidates(EventId.of(event), "members", 10)).isEmpty();

        offer(event, entries.get(1), GrantId.random());
        assertThat(queue().candidates(EventId.of(event), "presale", 10))
                .extracting(Candidate::entryId)
                .containsExactly(entries.get(3));
        assertThatThrownBy(() -> queue().moveToLane(EventId.of(event), visitors.get(1), null, "members"))
                .as("an offered place moves nowhere")
                .isInstanceOfSatisfying(
                        dev.waitroom.web.ProblemException.class,
                        e -> assertThat(e.problem()).isEqualTo(dev.waitroom.contract.ProblemType.STATE_CONFLICT));
        assertThatThrownBy(() -> queue().moveToLane(EventId.of(event), VisitorId.random(), null, "members"))
                .isInstanceOfSatisfying(
                        dev.waitroom.web.ProblemException.class,
                        e -> assertThat(e.problem()).isEqualTo(dev.waitroom.contract.ProblemType.NOT_IN_QUEUE));
        assertCounts(event, 4, 1, 0, 0, 0, 0);
    }

    @Test
    void aCallAsksForOneToAThousandEntries() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String entry = join(event, VisitorId.random());
        assertRefused(() -> queue().candidates(EventId.of(event), 0));
        assertRefused(() -> queue().candidates(EventId.of(event), 1001));
        assertThat(queue().candidates(EventId.of(event), 1000)).hasSize(1);
        assertRefused(() -> queue().offer(EventId.of(event), List.of()));
        GrantId grant = GrantId.random();
        assertRefused(() -> queue().offer(
                        EventId.of(event),
                        List.of(new Offer(entry, grant, deadline()), new Offer(entry, grant, deadline()))));
        assertCounts(event, 1, 0, 0, 0, 0, 0);
    }

    @Test
    void offersApplyOnceAndNameEntriesHeldElsewhere() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        String first = join(event, VisitorId.random());
        String second = join(event, VisitorId.random());
        VisitorId leaving = VisitorId.random();
        String left = join(event, leaving);
        leave(event, leaving);
        GrantId g1 = GrantId.random();
        GrantId g2 = GrantId.random();
        GrantId g3 = GrantId.random();

        List<OfferResult> results = queue().offer(
                        EventId.of(event),
                        List.of(
                                new Offer(first, g1, deadline()),
                                new Offer(second, g2, deadline()),
                                new Offer(left, g3, deadline()),
                                new Offer("zzzzzz", g3, deadline())));
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

        queue().transition(EventId.of(event), first, TransitionTarget.ACTIVE, g1);
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
        String entry = join(event, VisitorId.random());
        GrantId grant = GrantId.random();
        assertRefused(() -> queue().transition(EventId.of(event), entry, TransitionTarget.ACTIVE, grant));
        offer(event, entry, grant);

        assertRefused(() -> queue().transition(EventId.of(event), entry, TransitionTarget.ACTIVE, GrantId.random()));
        assertRefused(() -> queue().transition(EventId.of(event), entry, TransitionTarget.COMPLETED, grant));
        assertCounts(event, 0, 1, 0, 0, 0, 0);
        assertMovesAndRepeats(event, entry, TransitionTarget.ACTIVE, grant, "ACTIVE");
        assertCounts(event, 0, 0, 1, 0, 0, 0);
        assertRefused(() -> queue().transition(EventId.of(event), entry, TransitionTarget.OFFER_EXPIRED, grant));
        assertMovesAndRepeats(event, entry, TransitionTarget.COMPLETED, grant, "COMPLETED");
        assertCounts(event, 0, 0, 0, 1, 0, 0);
        assertRefused(() -> queue().transition(EventId.of(event), entry, TransitionTarget.EXPIRED, grant));
        assertRefused(() -> queue().transition(EventId.of(event), entry, TransitionTarget.ACTIVE, grant));
        assertCounts(event, 0, 0, 0, 1, 0, 0);
    }

    @Test
    void anEndedSessionOrAWithdrawnOfferExpiresTheEntry() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        GrantId g1 = GrantId.random();
        GrantId g2 = GrantId.random();
        String shopping = claimed(event, g1);
        String offered = offered(event, g2);

        assertMovesAndRepeats(event, shopping, TransitionTarget.EXPIRED, g1, "EXPIRED");
        assertThat(queue().transition(EventId.of(event), offered, TransitionTarget.EXPIRED, g2))
                .isEqualTo("EXPIRED");
        assertCounts(event, 0, 0, 0, 0, 0, 2);
        assertRefused(() -> queue().transition(EventId.of(event), shopping, TransitionTarget.COMPLETED, g1));
        assertExpiries(event, 0, 0, 0);
    }

    @Test
    void anUnclaimedOfferGoesToTheBackOnceThenExpires() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        GrantId g1 = GrantId.random();
        String first = offered(event, g1);
        String second = join(event, VisitorId.random());

        assertMovesAndRepeats(event, first, TransitionTarget.OFFER_EXPIRED, g1, "WAITING");
        assertRefused(() -> queue().transition(EventId.of(event), first, TransitionTarget.ACTIVE, g1));
        String third = join(event, VisitorId.random());
        List<Candidate> order = queue().candidates(EventId.of(event), 10);
        assertThat(order).extracting(Candidate::entryId).containsExactly(second, first, third);
        assertThat(order).extracting(Candidate::orderKey).isSorted().doesNotHaveDuplicates();
        assertCounts(event, 3, 0, 0, 0, 0, 0);
        assertExpiries(event, 1, 1, 1);

        GrantId g2 = GrantId.random();
        assertThat(offer(event, first, g2)).isEqualTo(new OfferResult(first, "OFFERED", true));
        assertRefused(() -> queue().transition(EventId.of(event), first, TransitionTarget.OFFER_EXPIRED, g1));
        assertMovesAndRepeats(event, first, TransitionTarget.OFFER_EXPIRED, g2, "EXPIRED");
        assertThat(queue().candidates(EventId.of(event), 10))
                .extracting(Candidate::entryId)
                .containsExactly(second, third);
        assertCounts(event, 2, 0, 0, 0, 0, 1);
        assertExpiries(event, 2, 1, 2);
    }

    @Test
    void aWithdrawnOfferWaitsAgainInItsOwnPlaceAndIsOfferedFirst() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        GrantId g1 = GrantId.random();
        GrantId g2 = GrantId.random();
        String first = offered(event, g1);
        String shopping = claimed(event, g2);
        String later = join(event, VisitorId.random());

        assertRefused(() -> queue().transition(EventId.of(event), first, TransitionTarget.OFFER_WITHDRAWN, g2));
        assertMovesAndRepeats(event, first, TransitionTarget.OFFER_WITHDRAWN, g1, "WAITING");
        assertRefused(() -> queue().transition(EventId.of(event), shopping, TransitionTarget.OFFER_WITHDRAWN, g2));
        List<Candidate> order = queue().candidates(EventId.of(event), 10);
        assertThat(order).extracting(Candidate::entryId).containsExactly(first, later);
        assertThat(order.get(0).orderKey())
                .as("its own place")
                .isLessThan(order.get(1).orderKey());
        assertCounts(event, 2, 0, 1, 0, 0, 0);
        assertExpiries(event, 0, 0, 0);

        GrantId g3 = GrantId.random();
        assertThat(offer(event, first, g3)).isEqualTo(new OfferResult(first, "OFFERED", true));
        assertRefused(() -> queue().transition(EventId.of(event), first, TransitionTarget.OFFER_WITHDRAWN, g1));
        assertThat(queue().transition(EventId.of(event), first, TransitionTarget.OFFER_EXPIRED, g3))
                .as("no requeue was spent")
                .isEqualTo("WAITING");
        assertThat(queue().candidates(EventId.of(event), 10))
                .extracting(Candidate::entryId)
                .containsExactly(later, first);
    }

    @Test
    void underDropAnUnclaimedOfferExpiresAtOnce() {
        String event = open(ExpiredOfferPolicy.DROP);
        GrantId g1 = GrantId.random();
        GrantId g2 = GrantId.random();
        String unclaimed = offered(event, g1);
        String claimed = claimed(event, g2);
        VisitorId leaving = VisitorId.random();
        join(event, leaving);
        leave(event, leaving);

        assertMovesAndRepeats(event, unclaimed, TransitionTarget.OFFER_EXPIRED, g1, "EXPIRED");
        assertThat(offer(event, unclaimed, g1))
                .as("the queue keeps the grant it offered last")
                .isEqualTo(new OfferResult(unclaimed, "EXPIRED", true));
        assertRefused(() -> queue().transition(EventId.of(event), claimed, TransitionTarget.OFFER_EXPIRED, g2));
        assertThat(queue().candidates(EventId.of(event), 10)).isEmpty();
        assertCounts(event, 0, 0, 1, 0, 1, 1);
        assertExpiries(event, 1, 0, 2);
        QueueCounts counts = queue().counts(EventId.of(event));
        assertThat(counts.joins()).isEqualTo(3);
        assertThat(counts.oldestWaitSeconds()).as("nobody waits").isZero();
    }

    @Test
    void aVisitorWhoLeftIsNoCandidateAndRejoinsAtTheBack() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        VisitorId visitor = VisitorId.random();
        String entry = join(event, visitor);
        String other = join(event, VisitorId.random());
        assertThat(join(event, visitor)).as("one entry per visitor").isEqualTo(entry);
        leave(event, visitor);
        leave(event, visitor);
        assertCounts(event, 1, 0, 0, 0, 1, 0);
        assertThat(queue().candidates(EventId.of(event), 10))
                .extracting(Candidate::entryId)
                .containsExactly(other);
        GrantId grant = GrantId.random();
        assertThat(offer(event, entry, grant)).isEqualTo(new OfferResult(entry, "LEFT", false));
        assertRefused(() -> queue().transition(EventId.of(event), entry, TransitionTarget.ACTIVE, grant));

        String again = join(event, visitor);
        assertThat(again).as("a new entry").isNotEqualTo(entry);
        assertThat(queue().candidates(EventId.of(event), 10))
                .extracting(Candidate::entryId)
                .containsExactly(other, again);
        assertCounts(event, 2, 0, 0, 0, 1, 0);
        QueueCounts counts = queue().counts(EventId.of(event));
        assertThat(counts.joins()).isEqualTo(3);
        assertThat(counts.abandoned()).isEqualTo(1);
    }

    // the drop of an archived or deleted event (docs/operating/event-lifecycle.md)

    @Test
    void aDroppedEventIsUnknownTakesNoJoinAndRefusesAPushForAWhile() {
        String event = newEvent();
        push(event, EventPhase.SCHEDULED, 1);
        queue().dropEvent(EventId.of(event), true);

        assertUnknown(event);
        assertThatThrownBy(() -> join(event, VisitorId.random())).as("a join finds no event");
        assertRefused(() -> push(event, EventPhase.SCHEDULED, 1));
        assertUnknown(event);
        queue().dropEvent(EventId.of(event), true);
    }

    @Test
    void aDropOnlyIfEmptyIsRefusedOnceSomeoneJoinedAndChangesNothing() {
        String event = newEvent();
        push(event, EventPhase.SCHEDULED, 1);
        join(event, VisitorId.random());

        assertRefused(() -> queue().dropEvent(EventId.of(event), true));
        assertCounts(event, 1, 0, 0, 0, 0, 0);

        queue().dropEvent(EventId.of(event), false);
        assertUnknown(event);
    }

    @Test
    void aDropOfAnEventNeverPushedSucceeds() {
        String event = newEvent();
        queue().dropEvent(EventId.of(event), true);
        assertUnknown(event);
    }

    @Test
    void aJoinAgainstADropOnlyIfEmptyEitherKeepsItsPlaceOrFindsNoEvent() throws Exception {
        for (int round = 0; round < 15; round++) {
            String event = newEvent();
            push(event, EventPhase.SCHEDULED, 1);
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
            java.util.concurrent.CompletableFuture<Boolean> joined =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        awaitBarrier(start);
                        try {
                            join(event, VisitorId.random());
                            return true;
                        } catch (RuntimeException | AssertionError refused) {
                            return false;
                        }
                    });
            java.util.concurrent.CompletableFuture<Boolean> dropped =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        awaitBarrier(start);
                        try {
                            queue().dropEvent(EventId.of(event), true);
                            return true;
                        } catch (QueueRejectedException refused) {
                            return false;
                        }
                    });
            assertThat(List.of(joined.get(), dropped.get()))
                    .as("exactly one of the join and the drop took effect")
                    .containsExactlyInAnyOrder(true, false);
            if (joined.get()) {
                assertCounts(event, 1, 0, 0, 0, 0, 0);
            } else {
                assertUnknown(event);
            }
        }
    }

    private static void awaitBarrier(java.util.concurrent.CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    // what the queue does not know

    @Test
    void anEventNeverPushedIsUnknownToEveryCall() {
        assertUnknown(newEvent());
    }

    @Test
    void anUnknownEntryIsRefusedOrNamedWithoutAState() {
        String event = open(ExpiredOfferPolicy.REQUEUE_ONCE);
        join(event, VisitorId.random());
        assertRefused(() -> queue().transition(EventId.of(event), "zzzzzz", TransitionTarget.ACTIVE, GrantId.random()));
        assertRefused(
                () -> queue().transition(EventId.of(event), "not an entry", TransitionTarget.ACTIVE, GrantId.random()));
        assertThat(offer(event, "zzzzzz", GrantId.random())).isEqualTo(new OfferResult("zzzzzz", null, false));
        assertRefused(() ->
                queue().offer(EventId.of(event), List.of(new Offer("not an entry", GrantId.random(), deadline()))));
        assertCounts(event, 1, 0, 0, 0, 0, 0);
    }

    private void assertUnknown(String event) {
        assertRefused(() -> queue().candidates(EventId.of(event), 1));
        assertRefused(() -> queue().counts(EventId.of(event)));
        assertRefused(() -> queue().draw(EventId.of(event), SEED));
        assertRefused(() -> queue().offer(EventId.of(event), List.of(new Offer("1", GrantId.random(), deadline()))));
        assertRefused(() -> queue().transition(EventId.of(event), "1", TransitionTarget.ACTIVE, GrantId.random()));
    }

    // helpers

    private String open(ExpiredOfferPolicy policy) {
        String event = newEvent();
        push(event, EventPhase.OPEN, OperatingMode.QUEUEING, 1, policy, PresaleOrdering.RANDOM);
        return event;
    }

    private void push(String event, EventPhase phase, long generation) {
        push(event, phase, OperatingMode.QUEUEING, generation, ExpiredOfferPolicy.REQUEUE_ONCE, PresaleOrdering.RANDOM);
    }

    private void push(
            String event,
            EventPhase phase,
            OperatingMode mode,
            long generation,
            ExpiredOfferPolicy policy,
            PresaleOrdering ordering) {
        queue().putEventState(
                        EventId.of(event),
                        EventUpdateRequest.of(
                                phase,
                                mode,
                                null,
                                generation,
                                COMMITMENT,
                                null,
                                IdentityScope.BROWSER,
                                policy,
                                ordering,
                                2.0,
                                60,
                                null,
                                JoinGate.OPEN,
                                null,
                                AfterPurchase.DEFAULT,
                                null,
                                null));
    }

    private List<String> joinMany(String event, int visitors) {
        return IntStream.range(0, visitors)
                .mapToObj(i -> join(event, VisitorId.random()))
                .toList();
    }

    /** The transition answers {@code state}, and its repeat answers the same and changes nothing. */
    private void assertMovesAndRepeats(String event, String entry, TransitionTarget to, GrantId grant, String state) {
        assertThat(queue().transition(EventId.of(event), entry, to, grant)).isEqualTo(state);
        assertThat(queue().transition(EventId.of(event), entry, to, grant))
                .as("a repeat")
                .isEqualTo(state);
    }

    /** A new visitor's entry, offered with {@code grant}. */
    private String offered(String event, GrantId grant) {
        String entry = join(event, VisitorId.random());
        assertThat(offer(event, entry, grant)).isEqualTo(new OfferResult(entry, "OFFERED", true));
        return entry;
    }

    /** A new visitor's entry, offered with {@code grant} and claimed. */
    private String claimed(String event, GrantId grant) {
        String entry = offered(event, grant);
        assertThat(queue().transition(EventId.of(event), entry, TransitionTarget.ACTIVE, grant))
                .isEqualTo("ACTIVE");
        return entry;
    }

    private OfferResult offer(String event, String entry, GrantId grant) {
        List<OfferResult> results = queue().offer(EventId.of(event), List.of(new Offer(entry, grant, deadline())));
        assertThat(results).hasSize(1);
        return results.get(0);
    }

    private void assertCounts(
            String event, long waiting, long offered, long active, long completed, long left, long expired) {
        QueueCounts counts = queue().counts(EventId.of(event));
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
        QueueCounts counts = queue().counts(EventId.of(event));
        assertThat(List.of(counts.offersExpired(), counts.requeued(), counts.abandoned()))
                .as("offersExpired, requeued, abandoned of %s", counts)
                .containsExactly(offersExpired, requeued, abandoned);
    }

    private static void assertRefused(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOf(QueueRejectedException.class);
    }

    private static Instant deadline() {
        return Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
    }

    private static String newEvent() {
        return "qd-" + UUID.randomUUID().toString().substring(0, 13);
    }

    /** The draw's rank of an entry: HMAC-SHA256(seed, entry id), compared as unsigned bytes (docs/design/architecture.md). */
    private static byte[] hmac(String seedHex, String entryId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(HexFormat.of().parseHex(seedHex), "HmacSHA256"));
            return mac.doFinal(entryId.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
