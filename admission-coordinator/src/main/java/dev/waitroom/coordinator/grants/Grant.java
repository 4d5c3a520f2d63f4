package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.tokens.VisitorId;
import java.time.Instant;

/**
 * A grant row. {@code visitor} is the identity the offer was made to (the queue entry's); {@code sessionId} and
 * {@code sessionVisitor} are null until the offer is claimed, then name the session and the identity it is bound to
 * (the same id, or the claiming browser's for an ACCOUNT place claimed from another browser, docs/integration/accounts.md). {@code generation} is the lease's fencing generation the offer was made under;
 * {@code saleGeneration} the sale's round (docs/design/sale-rules/sold-out-pause-rounds.md); {@code region} the region whose gate made the
 * offer, empty for the central gate (docs/operating/regions.md). {@code entryId} is the queue entry the offer was made
 * for; a pass's session has none (null) and names its pass in {@code passId} (null otherwise,
 * docs/operating/allow-rules-and-passes.md). Visitor ids are personal data: they never appear in logs ({@link #toString()}
 * omits them).
 */
public record Grant(
        GrantId id,
        EventId eventId,
        VisitorId visitor,
        EntryId entryId,
        long orderKey,
        FencingGeneration generation,
        GrantState state,
        Instant offeredAt,
        Instant offerExpiresAt,
        SessionId sessionId,
        VisitorId sessionVisitor,
        Instant activatedAt,
        Instant sessionExpiresAt,
        Instant absoluteExpiresAt,
        Instant purchasedAt,
        Instant releasedAt,
        ReleaseReason releaseReason,
        GrantState queueSyncedState,
        long saleGeneration,
        Region region,
        String passId) {

    @Override
    public String toString() {
        return "Grant[id=" + this.id + ", event=" + this.eventId + ", state=" + this.state + ", generation="
                + this.generation.value() + "]";
    }
}
