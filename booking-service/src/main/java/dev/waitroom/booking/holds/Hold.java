package dev.waitroom.booking.holds;

import dev.waitroom.contract.EventId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** A seat hold: some seats reserved for one shopping session until {@code expiresAt}. */
public record Hold(
        HoldId id, EventId eventId, HoldOwner owner, HoldState state, Instant expiresAt, List<HeldSeat> seats) {

    public Hold {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(expiresAt, "expiresAt");
        seats = List.copyOf(seats);
    }

    public long amountCents() {
        return seats.stream().mapToLong(HeldSeat::priceCents).sum();
    }

    public boolean isLiveAt(Instant now) {
        return state == HoldState.ACTIVE && expiresAt.isAfter(now);
    }
}
