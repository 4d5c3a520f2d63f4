package dev.waitroom.coordinator.admission;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.event.AfterPurchase;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventConfig;
import dev.waitroom.coordinator.event.EventNotFoundException;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.VisitorId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Claims, renewals and releases of shopping sessions. Ordering rules (docs/ARCHITECTURE.md#admission-path,
 * docs/CONTRACTS.md#live-session-registry-redis-coordinator-writes-gateway-reads): on claim Postgres first, then the
 * registry, then the token; on release the registry first, then the capacity returns. Release is one conditional
 * update, so exactly one of leave, purchase-complete and expiry returns the capacity.
 */
@Service
public class Admissions {

    private static final Logger log = LoggerFactory.getLogger(Admissions.class);

    /** A release tombstone outlives the session's absolute limit by this much. */
    private static final Duration TOMBSTONE_MARGIN = Duration.ofMinutes(5);

    private final Grants grants;

    private final Events events;

    private final SessionRegistry registry;

    private final SigningKeys keys;

    private final QueueSync sync;

    private final AdmissionMetrics metrics;

    private final Clock clock;

    Admissions(
            Grants grants,
            Events events,
            SessionRegistry registry,
            SigningKeys keys,
            QueueSync sync,
            AdmissionMetrics metrics,
            Clock clock) {
        this.grants = grants;
        this.events = events;
        this.registry = registry;
        this.keys = keys;
        this.sync = sync;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Claims this visitor's offer, or returns their existing session with a fresh token (idempotent). */
    public Admission claim(EventId eventId, VisitorId visitor) {
        Event event = event(eventId);
        EventConfig config = event.config();
        String e = eventId.value();
        for (int attempt = 0; attempt < 3; attempt++) {
            Instant now = this.clock.instant();
            Instant absolute = now.plus(config.sessionMax());
            Instant expires = min(now.plus(config.sessionTtl()), absolute);
            Optional<Grant> activated = this.grants.activate(e, visitor, SessionId.random(), now, expires, absolute);
            if (activated.isPresent()) {
                Admission admission = admit(event, activated.get(), now);
                this.metrics.claimed(e, "activated");
                this.sync.pushQuietly(activated.get());
                return admission;
            }
            Grant latest = this.grants.findLatest(e, visitor).orElse(null);
            if (latest == null) {
                this.metrics.claimFailed(e, "no-offer");
                throw AdmissionProblems.noOffer();
            }
            switch (latest.state()) {
                case ACTIVE -> {
                    if (!latest.sessionExpiresAt().isAfter(now)) {
                        release(latest, ReleaseReason.SESSION_EXPIRED);
                        this.metrics.claimFailed(e, "session-ended");
                        throw AdmissionProblems.sessionEnded();
                    }
                    this.metrics.claimed(e, "repeat");
                    return admit(event, latest, now);
                }
                case OFFERED -> {
                    if (!latest.offerExpiresAt().isAfter(now)) {
                        expireOffer(latest, now);
                        this.metrics.claimFailed(e, "offer-expired");
                        throw AdmissionProblems.offerExpired();
                    }
                    // A concurrent change between the two statements: look again.
                }
                case OFFER_EXPIRED -> {
                    this.metrics.claimFailed(e, "offer-expired");
                    throw AdmissionProblems.offerExpired();
                }
                default -> {
                    this.metrics.claimFailed(e, "session-ended");
                    throw AdmissionProblems.sessionEnded();
                }
            }
        }
        throw AdmissionProblems.noOffer();
    }

    /** A fresh token with a later expiry, never past the absolute limit. */
    public Admission renew(EventId eventId, VisitorId visitor) {
        Event event = event(eventId);
        Instant now = this.clock.instant();
        Grant grant = this.grants
                .renew(eventId.value(), visitor, now, event.config().sessionTtl())
                .orElseThrow(AdmissionProblems::noLiveSession);
        return admit(event, grant, now);
    }

    /** Releases this visitor's session; true if this call returned the capacity. Idempotent. */
    public boolean leave(EventId eventId, VisitorId visitor) {
        event(eventId);
        Optional<Grant> live = this.grants.findLive(eventId.value(), visitor);
        return live.filter(g -> g.state() == GrantState.ACTIVE)
                .map(g -> release(g, ReleaseReason.LEFT))
                .orElse(false);
    }

    /** Booking reports a completed purchase; releases the session when the event's policy says so. */
    public GrantState purchaseCompleted(EventId eventId, SessionId sessionId, String orderId) {
        Event event = event(eventId);
        Grant grant =
                this.grants.findBySession(eventId.value(), sessionId).orElseThrow(AdmissionProblems::sessionNotFound);
        this.grants.recordPurchase(grant.id(), orderId, this.clock.instant());
        if (event.config().afterPurchase() == AfterPurchase.RELEASE && grant.state() == GrantState.ACTIVE) {
            release(grant, ReleaseReason.PURCHASED);
        }
        return this.grants.find(grant.id()).orElseThrow().state();
    }

    /**
     * Releases an ACTIVE grant: registry first, then the conditional update. True only for the one caller whose
     * update returned the capacity.
     */
    public boolean release(Grant grant, ReleaseReason reason) {
        if (grant.state() != GrantState.ACTIVE) {
            return false;
        }
        Instant now = this.clock.instant();
        Instant keepUntil = max(grant.absoluteExpiresAt(), now).plus(TOMBSTONE_MARGIN);
        this.registry.remove(EventId.of(grant.eventId()), grant.sessionId(), keepUntil);
        boolean released = this.grants.release(grant.id(), GrantState.ACTIVE, reason, now);
        if (released) {
            this.metrics.released(grant.eventId(), reason);
            this.grants.find(grant.id()).ifPresent(this.sync::pushQuietly);
        }
        return released;
    }

    /** Expires overdue offers and sessions of one event; returns how many grants this call released. */
    public int expireOverdue(String eventId, int limit) {
        Instant now = this.clock.instant();
        int released = 0;
        for (Grant expired : this.grants.expireOffers(eventId, now)) {
            this.metrics.released(eventId, ReleaseReason.OFFER_EXPIRED);
            this.sync.pushQuietly(expired);
            released++;
        }
        for (Grant overdue : this.grants.overdueSessions(eventId, now, limit)) {
            if (release(overdue, ReleaseReason.SESSION_EXPIRED)) {
                released++;
            }
        }
        return released;
    }

    private void expireOffer(Grant grant, Instant now) {
        if (this.grants.release(grant.id(), GrantState.OFFERED, ReleaseReason.OFFER_EXPIRED, now)) {
            this.metrics.released(grant.eventId(), ReleaseReason.OFFER_EXPIRED);
            this.grants.find(grant.id()).ifPresent(this.sync::pushQuietly);
        }
    }

    private Admission admit(Event event, Grant grant, Instant now) {
        if (!this.registry.admit(event.id(), grant.sessionId(), event.saleGeneration(), grant.sessionExpiresAt())) {
            throw AdmissionProblems.sessionEnded();
        }
        AdmissionClaims claims = new AdmissionClaims(
                grant.eventId(),
                event.saleGeneration(),
                grant.id().toString(),
                grant.sessionId().toString(),
                grant.visitor().value(),
                now,
                grant.sessionExpiresAt(),
                UUID.randomUUID().toString());
        String token = this.keys.issuer().issue(claims);
        log.debug("Admission token issued for {}", grant);
        return new Admission(
                grant.sessionId(),
                grant.eventId(),
                GrantState.ACTIVE,
                grant.sessionExpiresAt(),
                grant.absoluteExpiresAt(),
                token);
    }

    private Event event(EventId id) {
        return this.events.find(id).orElseThrow(() -> new EventNotFoundException(id));
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
