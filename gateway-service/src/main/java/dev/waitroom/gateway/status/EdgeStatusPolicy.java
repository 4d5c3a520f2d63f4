package dev.waitroom.gateway.status;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.contract.queue.WaitingBucket;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.tokens.QueueTicket;
import java.time.Duration;
import java.time.Instant;

/**
 * Decides whether a status poll can be answered at the edge from the visitor's queue ticket and
 * the event snapshot (docs/design/architecture.md#status-path), and computes the answer: before opening, that the visitor
 * waits in the pre-sale group; after the draw, a position band and an estimate range, by the same rules as the
 * queue-service's answers ({@link QueueStatus.Position#covering}, {@link QueueStatus.EstimatedWait#of} on the
 * snapshot's measured pace). Every doubt
 * forwards to the queue-service: the edge fails toward the truth, never toward a made-up position.
 */
final class EdgeStatusPolicy {

    /** Offers may have advanced this long beyond the snapshot's age before the edge stops answering. */
    private static final Duration OFFER_MARGIN = Duration.ofSeconds(3);

    private static final int MIN_POLL_SECONDS = 2;

    /**
     * Near the front (offers since the snapshot may have reached the visitor) the edge still answers, from a snapshot
     * at most this old, and asks for the next poll in {@link #NEAR_FRONT_POLL_SECONDS}: the visitor learns of an offer
     * made since at most this age plus one poll late, a few seconds of an offer's minutes, where forwarding every such
     * poll sent the most frequent pollers of a sale to the queue-service (docs/design/architecture.md#status-path). An offer
     * already in the snapshot (order key at or below the watermark) is always forwarded.
     */
    static final Duration NEAR_FRONT_MAX_AGE = Duration.ofMillis(1500);

    static final int NEAR_FRONT_POLL_SECONDS = 1;

    private static final int MAX_POLL_SECONDS = 30;

    private static final int PAUSED_POLL_SECONDS = 45;

    /** The queue-service's advice while the order is not known yet. */
    private static final int PRESALE_POLL_SECONDS = 20;

    private final Duration snapshotMaxAge;

    private final Duration ticketMaxAge;

    EdgeStatusPolicy(Duration snapshotMaxAge, Duration ticketMaxAge) {
        this.snapshotMaxAge = snapshotMaxAge;
        this.ticketMaxAge = ticketMaxAge;
    }

    sealed interface Decision permits Answer, Forward {}

    record Answer(QueueStatus status) implements Decision {}

    /** @param reason a bounded metric tag */
    record Forward(String reason) implements Decision {}

    Decision decide(String eventId, QueueTicket ticket, TimedSnapshot timed, Instant now) {
        if (ticket == null) {
            return new Forward("no-ticket");
        }
        if (!ticket.eventId().equals(eventId)) {
            return new Forward("other-event");
        }
        if (Duration.between(ticket.issuedAt(), now).compareTo(ticketMaxAge) >= 0) {
            // liveness needs no forward (the edge reports it in batches); this only bounds a ticket's life
            return new Forward("old-ticket");
        }
        if (timed == null) {
            return new Forward("no-snapshot");
        }
        Duration age = timed.ageAt(now);
        if (age.compareTo(snapshotMaxAge) >= 0) {
            return new Forward("stale-snapshot");
        }
        QueueSnapshot snapshot = timed.snapshot();
        if (snapshot.mode() != OperatingMode.QUEUEING && snapshot.mode() != OperatingMode.PAUSED) {
            return new Forward("mode");
        }
        if (snapshot.phase() == EventPhase.SCHEDULED) {
            // before opening nobody has a position or an offer: the ticket proves the entry, the
            // snapshot says the sale has not opened; the pre-sale crowd polls without reaching the queue
            return new Answer(new QueueStatus(
                    "WAITING",
                    EventPhase.SCHEDULED,
                    snapshot.mode(),
                    null,
                    null,
                    null,
                    PRESALE_POLL_SECONDS,
                    snapshot.announcement(),
                    ticket.entryId(),
                    snapshot.admissionHold(),
                    LaneName.GENERAL.value()));
        }
        if (snapshot.phase() != EventPhase.OPEN) {
            return new Forward("not-open");
        }
        if (!snapshot.orderFinalFor(ticket.issuedAt())) {
            return new Forward("before-draw");
        }
        // A snapshot a little older than the ticket still gives a band that holds the truth: entries only leave the
        // waiting order ahead of a visitor (offers are covered by the offer margin below), and an entry newer than
        // the snapshot (a requeue, a late join) has no bucket in it and is forwarded. Only a snapshot older than the
        // ticket by more than its own maximum age is refused: otherwise every forwarded poll, which hands out a
        // fresh ticket, would make the next poll forward again until the snapshot caught up.
        if (snapshot.generatedAt() == null
                || snapshot.generatedAt().plus(snapshotMaxAge).isBefore(ticket.issuedAt())) {
            return new Forward("snapshot-older-than-ticket");
        }
        long watermark = snapshot.offerWatermark() == null ? Long.MIN_VALUE : snapshot.offerWatermark();
        if (ticket.orderKey() <= watermark) {
            return new Forward("maybe-offered");
        }
        long fullyAhead = 0;
        WaitingBucket own = null;
        for (WaitingBucket bucket : snapshot.waitingBuckets()) {
            if (bucket.maxOrderKey() < ticket.orderKey()) {
                fullyAhead += bucket.count();
            } else {
                own = bucket;
                break;
            }
        }
        if (own == null || own.count() < 1) {
            return new Forward("not-waiting");
        }
        double rate = Math.max(0, snapshot.admissionRatePerSecond());
        // offers made since the snapshot was taken may already have removed people ahead
        long offeredSince = (long) Math.ceil(rate * seconds(age.plus(OFFER_MARGIN)));
        long aheadMax = fullyAhead + own.count() - 1;
        long aheadMin = Math.max(0, fullyAhead - offeredSince);
        boolean nearFront = aheadMin <= offeredSince;
        if (nearFront && age.compareTo(NEAR_FRONT_MAX_AGE) > 0) {
            return new Forward("near-offer");
        }
        // widened to the queue-service's coarse counts, so edge and queue-service answers read alike and both hold the
        // truth
        QueueStatus.Position band = QueueStatus.Position.covering(aheadMin, aheadMax);
        // a hold that stops offers (a planned window, the shop's health) shows no progress, like a pause
        boolean paused = snapshot.mode() == OperatingMode.PAUSED
                || (snapshot.admissionHold() != null && snapshot.admissionHold().stopsOffers());
        // the queue-service's rule on the same pushed pace (docs/design/estimates.md)
        QueueStatus.EstimatedWait estimate = paused ? null : QueueStatus.EstimatedWait.of(band, rate, snapshot.pace());
        QueueStatus status = new QueueStatus(
                "WAITING",
                snapshot.phase(),
                snapshot.mode(),
                band,
                estimate,
                null,
                nearFront && !paused ? NEAR_FRONT_POLL_SECONDS : pollAfter(paused, band.aheadMin(), rate),
                snapshot.announcement(),
                ticket.entryId(),
                snapshot.admissionHold(),
                LaneName.GENERAL.value());
        return new Answer(status);
    }

    /** A few seconds near the front, up to 30 s far away, 45 s while paused (the queue-service's advice). */
    static int pollAfter(boolean paused, long ahead, double rate) {
        if (paused) {
            return PAUSED_POLL_SECONDS;
        }
        double secondsAway = ahead / Math.max(rate, 0.1);
        return (int) Math.max(MIN_POLL_SECONDS, Math.min(MAX_POLL_SECONDS, Math.round(secondsAway / 10)));
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
