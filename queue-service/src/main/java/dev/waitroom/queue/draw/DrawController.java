package dev.waitroom.queue.draw;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.queue.DrawRequest;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.QueuePaths;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "draw", description = "The pre-sale draw (internal, coordinator)")
class DrawController {

    private final DrawService draws;

    DrawController(DrawService draws) {
        this.draws = draws;
    }

    @PostMapping(QueuePaths.DRAW)
    @Operation(
            summary =
                    "Order the pre-sale group by HMAC-SHA256(seed, entryId); a repeat is a no-op with the same result")
    DrawResult draw(@PathVariable("eventId") EventId event, @RequestBody(required = false) DrawRequest body) {
        if (body == null) {
            throw new MalformedValueException("a body with the seed is required");
        }
        return draws.draw(event, body.seed());
    }
}
