package dev.waitroom.queue.liveness;

import dev.waitroom.queue.contract.EventId;
import dev.waitroom.queue.contract.MalformedInputException;
import dev.waitroom.queue.join.EntryId;
import dev.waitroom.tokens.VisitorId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Liveness the gateway saw: it answers most status polls itself and reports the entries it answered for in one
 * batch per event per second, so liveness costs one script call per batch instead of a forward per poll.
 */
@RestController
@Tag(name = "liveness", description = "Entries whose polls the edge answered (internal, gateway)")
class LivenessController {

    /**
     * Entries per batch at most; the gateway splits larger ones. At most 40 bytes each on the wire, so a full batch
     * stays inside the service's 8 KiB body limit.
     */
    static final int MAX_BATCH = 150;

    private final LivenessStore store;

    LivenessController(LivenessStore store) {
        this.store = store;
    }

    /**
     * @param seen pairs of [entry id, visitor id]
     */
    record SeenBatch(List<List<String>> seen) {
    }

    /** @param notWaiting entries that are no longer WAITING for the visitor named (left, offered, gone) */
    record SeenResult(List<String> notWaiting) {
    }

    @PostMapping("/internal/events/{eventId}/liveness")
    @Operation(summary = "Record last-seen for entries the edge answered; answers those that are not waiting")
    SeenResult seen(@PathVariable String eventId, @RequestBody(required = false) SeenBatch batch) {
        EventId event = new EventId(eventId);
        if (batch == null || batch.seen() == null) {
            throw new MalformedInputException("a body {\"seen\":[[entryId, visitorId], ...]} is required");
        }
        if (batch.seen().size() > MAX_BATCH) {
            throw new MalformedInputException("at most " + MAX_BATCH + " entries per batch");
        }
        List<SeenEntry> entries = batch.seen().stream().map(LivenessController::entry).toList();
        return new SeenResult(store.recordSeen(event, entries).stream().map(EntryId::value).toList());
    }

    private static SeenEntry entry(List<String> pair) {
        if (pair == null || pair.size() != 2 || pair.get(0) == null || !VisitorId.isValid(pair.get(1))) {
            throw new MalformedInputException("each seen item is [entryId, visitorId]");
        }
        return new SeenEntry(new EntryId(pair.get(0)), new VisitorId(pair.get(1)));
    }
}
