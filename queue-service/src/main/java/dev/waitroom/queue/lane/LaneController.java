package dev.waitroom.queue.lane;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.queue.LaneMove;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.queue.join.Visitor;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The coordinator places a visitor in a lane once it has counted a use of an access code
 * (docs/operating/lanes-and-access-codes.md); the code itself never reaches the queue.
 */
@RestController
@Tag(name = "lanes", description = "Lane placement of a redeemed access code (internal, coordinator)")
class LaneController {

    private final LaneStore store;

    LaneController(LaneStore store) {
        this.store = store;
    }

    @PostMapping(QueuePaths.LANE)
    @Operation(summary = "Place the visitor's WAITING entry in a lane, keeping its order key; idempotent")
    LaneMoveResult move(@PathVariable("eventId") EventId event, @RequestBody(required = false) LaneMove body) {
        if (body == null || body.lane() == null) {
            throw new MalformedValueException("a body with 'visitor' and 'lane' is required");
        }
        return store.move(event, Visitor.fromHeaders(body.visitor(), body.account()), LaneName.of(body.lane()));
    }
}
