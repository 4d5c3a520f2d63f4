package dev.waitroom.queue.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.queue.EventStateView;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.PublicEventStatus;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.metrics.QueueMetrics;
import dev.waitroom.queue.status.GateSilence;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Event state pushed by the coordinator, the public event status, and the gateway's snapshot. */
@RestController
@Tag(name = "event", description = "Event state (internal push), public status, edge snapshot")
class EventController {

    private final EventStore store;
    private final QueueProperties properties;
    private final QueueMetrics metrics;

    private final GateSilence silence;

    private final EventDrop drop;

    EventController(
            EventStore store, QueueProperties properties, QueueMetrics metrics, GateSilence silence, EventDrop drop) {
        this.drop = drop;
        this.store = store;
        this.properties = properties;
        this.metrics = metrics;
        this.silence = silence;
    }

    @PutMapping(QueuePaths.EVENT)
    @Operation(summary = "Store the event state the coordinator pushes (on every change and at least every 5 s)")
    EventStateView put(@PathVariable("eventId") EventId event, @RequestBody(required = false) EventUpdateRequest body) {
        if (body == null) {
            throw new MalformedValueException("a body is required");
        }
        EventState state = store.putEvent(event, EventBodies.update(body));
        metrics.watch(event);
        return EventBodies.stateView(state);
    }

    @DeleteMapping(QueuePaths.EVENT)
    @Operation(
            summary = "Drop the keys of an event the coordinator archived or deleted; with ifEmpty=true only if nobody"
                    + " joined it (409 state-conflict)")
    ResponseEntity<Void> drop(
            @PathVariable("eventId") EventId event,
            @RequestParam(name = QueuePaths.DROP_IF_EMPTY, defaultValue = "false") boolean ifEmpty) {
        this.drop.drop(event, ifEmpty);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/events/{eventId}/status")
    @Operation(summary = "Public event status, identical for every visitor, cacheable for 1 s")
    ResponseEntity<PublicEventStatus> publicStatus(@PathVariable("eventId") EventId event) {
        EventState state = store.readEvent(event);
        metrics.watch(event);
        return ResponseEntity.ok()
                .cacheControl(CacheControl.maxAge(Duration.ofSeconds(1)).cachePublic())
                .body(EventBodies.publicStatus(state, this.silence));
    }

    @GetMapping(QueuePaths.SNAPSHOT)
    @Operation(
            summary = "Edge snapshot: phase, mode, announcement, offer watermark, rate, buckets of the waiting order")
    ResponseEntity<QueueSnapshot> snapshot(@PathVariable("eventId") EventId event) {
        QueueSnapshot body = EventBodies.snapshot(store.snapshot(event, properties.snapshotBuckets()), this.silence);
        metrics.watch(event);
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(body);
    }
}
