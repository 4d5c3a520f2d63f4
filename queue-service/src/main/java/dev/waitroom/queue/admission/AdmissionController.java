package dev.waitroom.queue.admission;

import dev.waitroom.queue.admission.AdmissionBodies.CandidateView;
import dev.waitroom.queue.admission.AdmissionBodies.Candidates;
import dev.waitroom.queue.admission.AdmissionBodies.OfferItem;
import dev.waitroom.queue.admission.AdmissionBodies.OfferResultView;
import dev.waitroom.queue.admission.AdmissionBodies.OffersRequest;
import dev.waitroom.queue.admission.AdmissionBodies.OffersResponse;
import dev.waitroom.queue.admission.AdmissionBodies.TransitionRequest;
import dev.waitroom.queue.admission.AdmissionBodies.TransitionResponse;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.contract.EventId;
import dev.waitroom.queue.contract.MalformedInputException;
import dev.waitroom.queue.join.EntryId;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.metrics.QueueMetrics;
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
class AdmissionController {

    private static final Pattern GRANT = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final AdmissionStore store;
    private final QueueMetrics metrics;
    private final int maxBatch;

    AdmissionController(AdmissionStore store, QueueMetrics metrics, QueueProperties properties) {
        this.store = store;
        this.metrics = metrics;
        this.maxBatch = properties.maxBatch();
    }

    @GetMapping("/internal/events/{eventId}/candidates")
    @Operation(summary = "The next N WAITING entries in policy order, not removed; empty before the draw completes")
    Candidates candidates(@PathVariable String eventId, @RequestParam(defaultValue = "100") int limit) {
        EventId event = new EventId(eventId);
        if (limit < 1 || limit > maxBatch) {
            throw new MalformedInputException("limit is 1.." + maxBatch);
        }
        return new Candidates(store.candidates(event, limit).stream().map(CandidateView::of).toList());
    }

    @PostMapping("/internal/events/{eventId}/offers")
    @Operation(summary = "WAITING -> OFFERED with a grant and deadline; an entry already OFFERED with that grant is unchanged")
    OffersResponse offers(@PathVariable String eventId, @RequestBody(required = false) OffersRequest body) {
        EventId event = new EventId(eventId);
        if (body == null || body.offers() == null || body.offers().isEmpty() || body.offers().size() > maxBatch) {
            throw new MalformedInputException("offers is a list of 1.." + maxBatch + " items");
        }
        Set<String> seen = new HashSet<>();
        List<OfferRequest> requests = body.offers().stream().map(o -> toRequest(o, seen)).toList();
        List<OfferResult> results = store.offer(event, requests);
        metrics.offered(event, results.stream().filter(r -> r.state() == EntryState.OFFERED && r.holdsGrant()).count());
        return new OffersResponse(results.stream().map(OfferResultView::of).toList());
    }

    @PostMapping("/internal/events/{eventId}/entries/{entryId}/transition")
    @Operation(summary = "Move an entry to ACTIVE, COMPLETED, EXPIRED, or OFFER_EXPIRED (the expired-offer policy decides)")
    TransitionResponse transition(@PathVariable String eventId, @PathVariable String entryId,
            @RequestBody(required = false) TransitionRequest body) {
        EventId event = new EventId(eventId);
        EntryId entry = new EntryId(entryId);
        if (body == null) {
            throw new MalformedInputException("a body with 'to' and 'grantId' is required");
        }
        TransitionTarget target = TransitionTarget.parse(body.to());
        EntryState state = store.transition(event, entry, target, requireGrant(body.grantId()));
        metrics.transitioned(event, target.name());
        return new TransitionResponse(entry.value(), state.name());
    }

    @GetMapping("/internal/events/{eventId}/counts")
    @Operation(summary = "waiting, offered, active, completed, left, expired, joins, oldestWaitSeconds, abandoned")
    Counts counts(@PathVariable String eventId) {
        EventId event = new EventId(eventId);
        Counts counts = store.counts(event);
        metrics.waiting(event, counts.waiting());
        metrics.counted(event, counts.oldestWaitSeconds(), counts.abandoned());
        return counts;
    }

    private static OfferRequest toRequest(OfferItem o, Set<String> seen) {
        if (o == null || o.expiresAt() == null) {
            throw new MalformedInputException("each offer has entryId, grantId and expiresAt");
        }
        EntryId entry = new EntryId(o.entryId());
        if (!seen.add(entry.value())) {
            throw new MalformedInputException("an entry appears twice in one offer call");
        }
        return new OfferRequest(entry, requireGrant(o.grantId()), o.expiresAt());
    }

    private static String requireGrant(String grantId) {
        if (grantId == null || !GRANT.matcher(grantId).matches()) {
            throw new MalformedInputException("grantId is 1..64 characters of letters, digits, '-' and '_'");
        }
        return grantId;
    }
}
