package dev.waitroom.queue.liveness;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.LivenessBatch;
import dev.waitroom.contract.queue.LivenessResult;
import dev.waitroom.contract.queue.QueuePaths;
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

    private final LivenessStore store;

    LivenessController(LivenessStore store) {
        this.store = store;
    }

    @PostMapping(QueuePaths.LIVENESS)
    @Operation(summary = "Record last-seen for entries the edge answered; answers those that are not waiting")
    LivenessResult seen(@PathVariable("eventId") EventId event, @RequestBody(required = false) LivenessBatch batch) {
        if (batch == null) {
            throw new MalformedValueException("a body {\"seen\":[[entryId, visitorId], ...]} is required");
        }
        List<SeenEntry> entries =
                batch.validated().seen().stream().map(LivenessController::entry).toList();
        return new LivenessResult(
                store.recordSeen(event, entries).stream().map(EntryId::value).toList());
    }

    private static SeenEntry entry(List<String> pair) {
        LivenessBatch.Seen seen = LivenessBatch.Seen.fromPair(pair);
        if (!VisitorId.isValid(seen.visitorId())) {
            throw new MalformedValueException("each seen item is [entryId, visitorId]");
        }
        return new SeenEntry(new EntryId(seen.entryId()), new VisitorId(seen.visitorId()));
    }
}
