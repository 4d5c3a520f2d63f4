package dev.waitroom.queue.offers;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.queue.Candidates;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.EntryTransition;
import dev.waitroom.contract.queue.EntryTransitionResult;
import dev.waitroom.contract.queue.Offer;
import dev.waitroom.contract.queue.OfferBatch;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.OfferResults;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.metrics.QueueMetrics;
import dev.waitroom.queue.status.EstimateScores;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** What the coordinator asks of the queue: who is next, offer them, move them along, how many of each. */
@RestController
@Tag(name = "admission", description = "Candidates, offers, transitions and counts (internal, coordinator)")
class OfferController {

    private static final Pattern GRANT = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final OfferStore store;
    private final QueueMetrics metrics;
    private final EstimateScores estimates;
    private final int maxBatch;

    OfferController(OfferStore store, QueueMetrics metrics, EstimateScores estimates, QueueProperties properties) {
        this.store = store;
        this.metrics = metrics;
        this.estimates = estimates;
        this.maxBatch = properties.maxBatch();
    }

    @GetMapping(QueuePaths.CANDIDATES)
    @Operation(summary = "The next N WAITING entries in policy order, not removed; empty before the draw completes")
    Candidates candidates(
            @PathVariable("eventId") EventId event,
            @RequestParam(name = QueuePaths.CANDIDATES_LIMIT, defaultValue = "100") int limit,
            @RequestParam(name = QueuePaths.CANDIDATES_LANE, required = false) String lane) {
        if (limit < 1 || limit > maxBatch) {
            throw new MalformedValueException("limit is 1.." + maxBatch);
        }
        return new Candidates(store.candidates(event, lane == null ? LaneName.GENERAL : LaneName.of(lane), limit));
    }

    @PostMapping(QueuePaths.OFFERS)
    @Operation(
            summary =
                    "WAITING -> OFFERED with a grant and deadline; an entry already OFFERED with that grant is unchanged")
    OfferResults offers(@PathVariable("eventId") EventId event, @RequestBody(required = false) OfferBatch body) {
        if (body == null
                || body.offers() == null
                || body.offers().isEmpty()
                || body.offers().size() > maxBatch) {
            throw new MalformedValueException("offers is a list of 1.." + maxBatch + " items");
        }
        Set<String> seen = new HashSet<>();
        List<OfferRequest> requests =
                body.offers().stream().map(o -> toRequest(o, seen)).toList();
        List<OfferOutcome> outcomes = store.offer(event, requests);
        metrics.offered(
                event,
                outcomes.stream()
                        .filter(r -> r.state() == EntryState.OFFERED && r.holdsGrant())
                        .count());
        // the real wait of each offered entry against the range it was first shown (docs/design/estimates.md)
        estimates.offered(
                event,
                outcomes.stream()
                        .filter(r -> r.state() == EntryState.OFFERED && r.holdsGrant())
                        .map(OfferOutcome::entryId)
                        .toList());
        return new OfferResults(outcomes.stream().map(OfferController::result).toList());
    }

    @PostMapping(QueuePaths.TRANSITION)
    @Operation(
            summary =
                    "Move an entry to ACTIVE, COMPLETED, EXPIRED, OFFER_EXPIRED (the expired-offer policy decides), or"
                            + " OFFER_WITHDRAWN (back to WAITING in its place)")
    EntryTransitionResult transition(
            @PathVariable("eventId") EventId event,
            @PathVariable("entryId") EntryId entry,
            @RequestBody(required = false) EntryTransition body) {
        if (body == null) {
            throw new MalformedValueException("a body with 'to' and 'grantId' is required");
        }
        TransitionTarget target = body.target();
        EntryState state = store.transition(event, entry, target, requireGrant(body.grantId()));
        metrics.transitioned(event, target.name());
        return new EntryTransitionResult(entry.value(), state.name());
    }

    @GetMapping(QueuePaths.COUNTS)
    @Operation(summary = "waiting, offered, active, completed, left, expired, joins, oldestWaitSeconds, abandoned")
    QueueCounts counts(@PathVariable("eventId") EventId event) {
        QueueCounts counts = store.counts(event);
        metrics.watch(event);
        return counts;
    }

    private static OfferRequest toRequest(Offer o, Set<String> seen) {
        if (o == null || o.expiresAt() == null) {
            throw new MalformedValueException("each offer has entryId, grantId and expiresAt");
        }
        EntryId entry = new EntryId(o.entryId());
        if (!seen.add(entry.value())) {
            throw new MalformedValueException("an entry appears twice in one offer call");
        }
        return new OfferRequest(entry, requireGrant(o.grantId()), o.expiresAt());
    }

    /** {@code state} is null for an unknown entry; {@code applied}: held by the offered grant, now or before. */
    private static OfferResult result(OfferOutcome o) {
        return new OfferResult(
                o.entryId().value(), o.state() == null ? null : o.state().name(), o.holdsGrant());
    }

    private static String requireGrant(String grantId) {
        if (grantId == null || !GRANT.matcher(grantId).matches()) {
            throw new MalformedValueException("grantId is 1..64 characters of letters, digits, '-' and '_'");
        }
        return grantId;
    }
}
