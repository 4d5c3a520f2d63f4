package dev.waitroom.queue.event;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.queue.JoinGate;
import java.time.Instant;

/**
 * The event state the coordinator pushes (PUT /internal/events/{e}), validated; as stored, the part of
 * {@link EventState} it pushed. The join gate is the event's join ceiling (enforced by join.lua) and its proof-of-work
 * difficulty (enforced by the gateway, which reads it from the snapshot).
 */
public record EventUpdate(
        EventPhase phase,
        OperatingMode mode,
        String announcement,
        long saleGeneration,
        String commitment,
        String seed,
        IdentityScope identityScope,
        ExpiredOfferPolicy expiredOfferPolicy,
        PresaleOrdering presaleOrdering,
        double admissionRatePerSecond,
        long offerTtlSeconds,
        Instant opensAt,
        JoinGate joinGate) {}
