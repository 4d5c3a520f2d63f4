package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.Region;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventConfig;
import dev.waitroom.coordinator.event.EventNotFoundException;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.problems.CoordinatorException;
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
 * Claims, renewals and releases of shopping sessions. Ordering rules (docs/design/architecture.md#admission-path,
 * docs/reference/contracts.md#live-session-registry-redis-coordinator-writes-gateway-reads): on claim Postgres first, then the
 * registry, then the token; on release the registry first, then the capacity returns. Release is one conditional
 * update, so exactly one of leave, purchase-complete and expiry returns the capacity.
 */
@Service
public class Admissions {

    private static final Logger log = LoggerFactory.getLogger(Admissions.class);

    /** A release tombstone outlives the session's absolute limit by this much. */
    private static final Duration TOMBSTONE_MARGIN = Duration.ofMinutes(5);

    /**
     * A claim made with a key can be repeated with it until the offer's deadline, or this long after the claim when that
     * is later: an answer lost in the offer's last second can still be fetched again.
     */
    static final Duration CLAIM_RETRY_GRACE = Duration.ofSeconds(30);

    /** This gate's region: its session registry is the one its region's gateways read. */
    private final Region region;

    private final Grants grants;

    private final Events events;

    private final SessionRegistry registry;

    private final SigningKeys keys;

    private final SessionTokens tokens;

    private final QueueSync sync;

    private final AdmissionMetrics metrics;

    private final Clock clock;

    Admissions(
            Grants grants,
            Events events,
            SessionRegistry registry,
            SigningKeys keys,
            SessionTokens tokens,
            QueueSync sync,
            AdmissionMetrics metrics,
            Clock clock,
            Region region) {
        this.region = region;
        this.grants = grants;
        this.events = events;
        this.registry = registry;
        this.keys = keys;
        this.tokens = tokens;
        this.sync = sync;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * Claims this visitor's offer with nothing but the visitor id: see {@link #claim(EventId, VisitorId, VisitorId,
     * ClaimProof)}.
     */
    public Admission claim(EventId eventId, VisitorId visitor) {
        return claim(eventId, visitor, visitor, ClaimProof.none());
    }

    /**
     * Claims the offer made to {@code visitor} and binds the session to {@code claiming}, the claiming browser's own id:
     * the same id, except when the gateway claims an ACCOUNT-scoped place from another of the person's browsers
     * (docs/integration/accounts.md). Visitor ids are stable: the visitor's places in other events are untouched
     * (docs/design/architecture.md#identity). Idempotent for the browser that holds the offer: a
     * repeat, concurrent or after a lost answer, returns the same session with a fresh token when it proves it is that
     * browser ({@link ClaimProof}): the claim key the activating claim carried, within the claim's window, or a current
     * admission token of the session. A repeat with the visitor id alone (a copied visitor cookie) is refused, 409
     * {@code offer-claimed}, and gets no token.
     */
    public Admission claim(EventId eventId, VisitorId visitor, VisitorId claiming, ClaimProof proof) {
        Event event = event(eventId);
        EventConfig config = event.config();
        refuseUnlessClaimable(event);
        String keyDigest = proof.key().map(ClaimKey::digest).orElse(null);
        for (int attempt = 0; attempt < 3; attempt++) {
            Instant now = this.clock.instant();
            Instant absolute = now.plus(config.sessionMax());
            Instant expires = min(now.plus(config.sessionTtl()), absolute);
            Optional<Grant> activated = this.grants.activate(
                    eventId, visitor, claiming, SessionId.random(), now, expires, absolute, keyDigest);
            if (activated.isPresent()) {
                Admission admission = admit(event, activated.get(), now);
                this.metrics.claimed(eventId, "activated");
                this.sync.pushQuietly(activated.get());
                return admission;
            }
            // The statement refuses claims while PAUSED or SOLD_OUT: the mode may have changed since it was read.
            event = event(eventId);
            refuseUnlessClaimable(event);
            Optional<Grant> session = this.grants.findSessionOf(eventId, claiming);
            if (session.isPresent()) {
                Grant own = session.get();
                refuseClaimUnlessThisRegions(eventId, own);
                if (own.saleGeneration() != event.saleGeneration()) {
                    release(own, ReleaseReason.NEW_ROUND);
                    this.metrics.claimFailed(eventId, "old-generation");
                    throw AdmissionProblems.oldGeneration();
                }
                if (!own.sessionExpiresAt().isAfter(now)) {
                    release(own, ReleaseReason.SESSION_EXPIRED);
                    this.metrics.claimFailed(eventId, "session-ended");
                    throw AdmissionProblems.sessionEnded();
                }
                if (!heldBy(event, own, claiming, proof, now)) {
                    // the visitor id alone: the browser that claimed has the session, a copied cookie gets nothing
                    this.metrics.claimFailed(eventId, "offer-claimed");
                    throw AdmissionProblems.offerClaimed();
                }
                this.metrics.claimed(eventId, "repeat");
                return admit(event, own, now);
            }
            Grant latest = this.grants.findLatest(eventId, visitor).orElse(null);
            if (latest == null) {
                this.metrics.claimFailed(eventId, "no-offer");
                throw AdmissionProblems.noOffer();
            }
            switch (latest.state()) {
                case ACTIVE -> {
                    // claimed, and the session bound to another browser (of the same account,
                    // docs/integration/accounts.md)
                    this.metrics.claimFailed(eventId, "offer-claimed");
                    throw AdmissionProblems.offerClaimed();
                }
                case OFFERED -> {
                    refuseClaimUnlessThisRegions(eventId, latest);
                    if (!latest.offerExpiresAt().isAfter(now)) {
                        expireOffer(latest, now);
                        this.metrics.claimFailed(eventId, "offer-expired");
                        throw AdmissionProblems.offerExpired();
                    }
                    // A concurrent change between the two statements: look again.
                }
                case OFFER_EXPIRED -> {
                    if (latest.releaseReason() == ReleaseReason.SOLD_OUT) {
                        this.metrics.claimFailed(event.id(), "sold-out");
                        throw AdmissionProblems.soldOut();
                    }
                    this.metrics.claimFailed(eventId, "offer-expired");
                    throw AdmissionProblems.offerExpired();
                }
                default -> {
                    this.metrics.claimFailed(eventId, "session-ended");
                    throw AdmissionProblems.sessionEnded();
                }
            }
        }
        throw AdmissionProblems.noOffer();
    }

    /**
     * True when {@code proof} shows the claim comes from the browser that holds {@code session}: the key the activating
     * claim carried, within the claim's window, or a current admission token of the session. Or when nobody can hold
     * it yet: a session that was never made live in the registry has never had a token (its activating claim failed
     * after the commit, e.g. 503 with the registry down, or is still on its way), so, like the offer it was, it goes to
     * the offer's visitor.
     */
    private boolean heldBy(Event event, Grant session, VisitorId visitor, ClaimProof proof, Instant now) {
        if (proof.key().isPresent()
                && this.grants.claimedWith(session.id(), proof.key().get().digest(), now, CLAIM_RETRY_GRACE)) {
            return true;
        }
        if (proof.token().isPresent()) {
            try {
                return this.tokens
                        .sessionOf(event, visitor, proof.token().get())
                        .id()
                        .equals(session.id());
            } catch (CoordinatorException notThisSession) {
                // not this session's token: the session may still be undelivered
            }
        }
        return !this.registry.isLive(event.id(), session.sessionId());
    }

    /**
     * The token of a pass's session ({@link Grants#insertPassSession}, docs/operating/allow-rules-and-passes.md): the
     * session is made live in the registry, as a claimed offer's is, and counted as a claim of outcome {@code pass}.
     */
    public Admission admitPass(Event event, Grant session) {
        Admission admission = admit(event, session, this.clock.instant());
        this.metrics.claimed(event.id(), "pass");
        return admission;
    }

    /**
     * A fresh token with a later expiry, never past the absolute limit, for the visitor who presents {@code token}, an
     * admission token of their session (a 401 problem otherwise: the visitor cookie alone does not renew).
     */
    public Admission renew(EventId eventId, VisitorId visitor, String token) {
        Event event = event(eventId);
        Grant session = this.tokens.sessionOf(event, visitor, token);
        if (session.state() != GrantState.ACTIVE) {
            throw AdmissionProblems.tokenOfEndedSession();
        }
        return renew(event, session);
    }

    /** Renews the session bound to {@code visitor}, for in-process callers that need no token (tests, drills). */
    public Admission renew(EventId eventId, VisitorId visitor) {
        Event event = event(eventId);
        Grant session = this.grants.findSessionOf(eventId, visitor).orElseThrow(AdmissionProblems::noLiveSession);
        return renew(event, session);
    }

    private Admission renew(Event event, Grant session) {
        if (!isThisRegions(session)) {
            throw AdmissionProblems.otherRegion();
        }
        if (session.saleGeneration() != event.saleGeneration()) {
            throw AdmissionProblems.oldGeneration();
        }
        Instant now = this.clock.instant();
        Grant grant = this.grants
                .renew(session.id(), now, event.config().sessionTtl())
                .orElseThrow(AdmissionProblems::noLiveSession);
        return admit(event, grant, now);
    }

    /**
     * Releases the session of the visitor who presents {@code token}, an admission token of that session (a 401
     * problem otherwise); true if this call returned the capacity. Idempotent: the session may have ended already.
     */
    public boolean leave(EventId eventId, VisitorId visitor, String token) {
        Grant session = this.tokens.sessionOf(event(eventId), visitor, token);
        return release(session, ReleaseReason.LEFT);
    }

    /** Releases the session bound to {@code visitor}, for in-process callers that need no token (tests, drills). */
    public boolean leave(EventId eventId, VisitorId visitor) {
        event(eventId);
        return this.grants
                .findSessionOf(eventId, visitor)
                .map(g -> release(g, ReleaseReason.LEFT))
                .orElse(false);
    }

    /** Booking reports a completed purchase; releases the session when the event's policy says so. */
    public GrantState purchaseCompleted(EventId eventId, SessionId sessionId, String orderId) {
        Event event = event(eventId);
        Grant grant = this.grants.findBySession(eventId, sessionId).orElseThrow(AdmissionProblems::sessionNotFound);
        if (this.grants.recordPurchase(grant.id(), orderId, this.clock.instant())) {
            this.metrics.checkedOut(eventId);
        }
        if (event.config().afterPurchase() == AfterPurchase.RELEASE && grant.state() == GrantState.ACTIVE) {
            release(grant, ReleaseReason.PURCHASED);
        }
        return this.grants.find(grant.id()).orElseThrow().state();
    }

    /**
     * The shop ends a session it no longer serves (shop signal {@code session-release},
     * docs/integration/shop-signals.md): released as a leave, idempotent, and answered with the grant's state after it
     * (a session that ended already keeps its state).
     */
    public GrantState releaseSession(EventId eventId, SessionId sessionId) {
        event(eventId);
        Grant grant = this.grants.findBySession(eventId, sessionId).orElseThrow(AdmissionProblems::sessionNotFound);
        release(grant, ReleaseReason.LEFT);
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
        if (!isThisRegions(grant)) {
            // another region's session lives in that region's registry, which this gate cannot reach: its own gate
            // releases it (a recorded purchase: releasePurchased), or it ends at its deadline
            // (docs/operating/regions.md)
            log.info("Session of {} left for region {}'s gate to release ({})", grant, grant.region(), reason);
            return false;
        }
        Instant now = this.clock.instant();
        Instant keepUntil = max(grant.absoluteExpiresAt(), now).plus(TOMBSTONE_MARGIN);
        this.registry.remove(grant.eventId(), grant.sessionId(), keepUntil);
        boolean released = this.grants.release(grant.id(), GrantState.ACTIVE, reason, now);
        if (released) {
            this.metrics.released(grant.eventId(), reason);
            this.grants.find(grant.id()).ifPresent(this.sync::pushQuietly);
        }
        return released;
    }

    /** Expires overdue offers and sessions of one event; returns how many grants this call released. */
    public int expireOverdue(EventId eventId, int limit) {
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
        return released + endEarlierRounds(eventId, limit) + releasePurchased(eventId, limit);
    }

    /**
     * Releases this region's sessions whose purchase another region's coordinator recorded (booking reports to any
     * one) under {@code afterPurchase: RELEASE}: registry first, then the capacity. Returns how many.
     */
    public int releasePurchased(EventId eventId, int limit) {
        int released = 0;
        for (Grant grant : this.grants.purchasedToRelease(eventId, limit)) {
            if (release(grant, ReleaseReason.PURCHASED)) {
                released++;
            }
        }
        return released;
    }

    /**
     * Ends the overdue offers and sessions of a frozen region in the ledger (its gate stopped; docs/operating/regions.md), so its
     * capacity returns as its grants end. Its session registry lives in that region's Redis and lapses there at the same
     * deadline. Returns how many grants this call released.
     */
    public int expireFrozenRegion(EventId eventId, Region region) {
        int released = 0;
        for (Grant grant : this.grants.expireOfFrozenRegion(eventId, region, this.clock.instant())) {
            this.metrics.released(eventId, grant.releaseReason());
            released++;
        }
        return released;
    }

    /**
     * Ends the sessions of sale generations before the event's current one (a new round has opened): registry first,
     * then the capacity returns. Returns how many this call released.
     */
    public int endEarlierRounds(EventId eventId, int limit) {
        int released = 0;
        for (Grant old : this.grants.earlierRoundSessions(eventId, limit)) {
            if (release(old, ReleaseReason.NEW_ROUND)) {
                released++;
            }
        }
        return released;
    }

    /**
     * SOLD_OUT admits nobody (409 {@code sold-out}); PAUSED holds the offer (503 {@code admission-paused} with
     * Retry-After). docs/design/sale-rules/sold-out-pause-rounds.md.
     */
    private void refuseUnlessClaimable(Event event) {
        if (Grants.CLAIMABLE.contains(event.mode())) {
            return;
        }
        if (event.mode() == OperatingMode.PAUSED) {
            this.metrics.claimFailed(event.id(), "paused");
            throw AdmissionProblems.paused();
        }
        this.metrics.claimFailed(event.id(), "sold-out");
        throw AdmissionProblems.soldOut();
    }

    /**
     * Whether this region's gate made {@code grant}. Another region's offer or session is refused here (409 {@code
     * other-region}): a claim or renewal would register it in this region's registry while only its own gate releases
     * it, and the ceiling would not hold (issue #28, docs/operating/regions.md).
     */
    private boolean isThisRegions(Grant grant) {
        return this.region.equals(grant.region());
    }

    private void refuseClaimUnlessThisRegions(EventId eventId, Grant grant) {
        if (!isThisRegions(grant)) {
            this.metrics.claimFailed(eventId, "other-region");
            throw AdmissionProblems.otherRegion();
        }
    }

    private void expireOffer(Grant grant, Instant now) {
        if (this.grants.release(grant.id(), GrantState.OFFERED, ReleaseReason.OFFER_EXPIRED, now)) {
            this.metrics.released(grant.eventId(), ReleaseReason.OFFER_EXPIRED);
            this.grants.find(grant.id()).ifPresent(this.sync::pushQuietly);
        }
    }

    private Admission admit(Event event, Grant grant, Instant now) {
        // The grant's own round: a token never names a later generation than the session it opens.
        if (!this.registry.admit(event.id(), grant.sessionId(), grant.saleGeneration(), grant.sessionExpiresAt())) {
            throw AdmissionProblems.sessionEnded();
        }
        AdmissionClaims claims = new AdmissionClaims(
                grant.eventId().value(),
                grant.saleGeneration(),
                grant.id().toString(),
                grant.sessionId().toString(),
                grant.sessionVisitor().value(),
                now,
                grant.sessionExpiresAt(),
                UUID.randomUUID().toString());
        String token = this.keys.issuer().issue(claims);
        log.debug("Admission token issued for {}", grant);
        return new Admission(
                grant.sessionId(),
                grant.sessionVisitor(),
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
