package dev.waitroom.coordinator.lanes.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.lanes.AccessCodes;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.VisitorId;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * A visitor redeems an access code (docs/operating/lanes-and-access-codes.md), reached through the gateway, which
 * vouches for the visitor id: the code is in the JSON body only, never in a URL or a log line.
 */
@RestController
class AccessCodeController {

    private final AccessCodes codes;

    AccessCodeController(AccessCodes codes) {
        this.codes = codes;
    }

    record CodeBody(String code) {}

    record RedeemedView(String lane, String state) {}

    @PostMapping("/events/{eventId}/code")
    ResponseEntity<RedeemedView> redeem(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(name = Headers.ACCOUNT, required = false) String account,
            @RequestBody(required = false) CodeBody body) {
        if (visitor == null || !VisitorId.isValid(visitor)) {
            throw new CoordinatorException(ProblemType.VISITOR_REQUIRED, "The visitor identity is missing.");
        }
        if (body == null || body.code() == null || body.code().isBlank()) {
            throw new CoordinatorException(ProblemType.MALFORMED_REQUEST, "a body {\"code\"} is required");
        }
        AccessCodes.Redeemed redeemed = this.codes.redeem(
                EventId.of(eventId),
                new VisitorId(visitor),
                account == null || account.isEmpty() ? null : account,
                body.code());
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .body(new RedeemedView(redeemed.lane().value(), redeemed.state()));
    }
}
