package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorId;
import dev.waitroom.web.warmup.WarmupStep;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The coordinator's hot paths before it reports ready, against its own PostgreSQL, each call in one transaction that
 * is rolled back: a private {@link EventId#warmUp()} event opened, its lease taken, the ticker's fenced allocation of a
 * batch of offers, the claim statement for each, and the admission token of each signed and verified.
 *
 * <p>Not the claim through {@link Admissions}: that one writes the live-session registry in Redis and tells the
 * queue-service, and a warm-up touches nothing outside its own rolled-back transaction. A call that allocates or
 * claims less than it should fails, so a warm-up that stopped exercising the statements says so in the log.
 */
@Component
class AdmissionWarmup implements WarmupStep {

    /** Offers per allocation: the batch a busy tick allocates is of this order, and each is claimed. */
    private static final int BATCH = 8;

    /** Open, queueing and drawn (an allocation waits for the pre-sale draw): an event the ticker would offer from. */
    private static final String INSERT_EVENT = """
            insert into events (event_id, name, max_active_sessions, max_admissions_per_second, batch_max,
                offer_ttl_seconds, session_ttl_seconds, session_max_seconds, presale_ordering, identity_scope,
                expired_offer_policy, after_purchase, phase, mode, seed, commitment, seed_revealed_at)
            values (:id, 'warm-up', 1000, 1000, 100, 60, 600, 1800, 'FIFO', 'BROWSER', 'REQUEUE_ONCE', 'RELEASE',
                :phase, :mode, '', '', now())
            """;

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final Leases leases;
    private final Grants grants;
    private final Region region;
    private final SigningKeys keys;
    private final AdmissionTokenVerifier verifier;
    private final Clock clock;
    private final String owner = "warm-up-" + UUID.randomUUID();

    AdmissionWarmup(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            Leases leases,
            Grants grants,
            Region region,
            SigningKeys keys,
            Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.leases = leases;
        this.grants = grants;
        this.region = region;
        this.keys = keys;
        this.clock = clock;
        // its own instance: the service's verifiers cache what they verified, and warm-up tokens must not fill them
        this.verifier = AdmissionTokenVerifier.of(keys::publicJwksJson, clock, AdmissionTokenVerifier.DEFAULT_SKEW, 16);
    }

    @Override
    public String name() {
        return "coordinator allocations, claims and tokens";
    }

    @Override
    public void call(int iteration) {
        transactions.executeWithoutResult(status -> {
            try {
                allocateAndClaim(EventId.warmUp());
            } finally {
                status.setRollbackOnly();
            }
        });
    }

    private void allocateAndClaim(EventId event) {
        String e = event.value();
        jdbc.sql(INSERT_EVENT)
                .param("id", e)
                .param("phase", EventPhase.OPEN.name())
                .param("mode", OperatingMode.QUEUEING.name())
                .update();
        FencingGeneration generation = leases.acquireOrRenew(event, owner, Leases.MAX_LEASE)
                .orElseThrow(() -> new IllegalStateException("the warm-up event's lease was not taken"));
        List<Candidate> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            batch.add(new Candidate(EntryId.ofSequence(i + 1), VisitorId.random(), i + 1));
        }
        Instant now = clock.instant();
        List<Grant> offered =
                grants.allocate(region, event, owner, generation, batch, now, now.plus(Duration.ofMinutes(1)));
        if (offered.size() != BATCH) {
            throw new IllegalStateException("the warm-up allocation offered " + offered.size() + " of " + BATCH);
        }
        for (Candidate candidate : batch) {
            Grant session = grants.activate(
                            event,
                            candidate.visitor(),
                            candidate.visitor(),
                            SessionId.random(),
                            now,
                            now.plus(Duration.ofMinutes(10)),
                            now.plus(Duration.ofMinutes(30)),
                            null)
                    .orElseThrow(() -> new IllegalStateException("the warm-up claim activated nothing"));
            String token = keys.issuer()
                    .issue(new AdmissionClaims(
                            e,
                            session.saleGeneration(),
                            session.id().toString(),
                            session.sessionId().toString(),
                            session.sessionVisitor().value(),
                            now,
                            session.sessionExpiresAt(),
                            UUID.randomUUID().toString()));
            try {
                verifier.verify(token, e, session.saleGeneration());
            } catch (TokenRejectedException rejected) {
                throw new IllegalStateException("the warm-up token was refused: " + rejected.reason(), rejected);
            }
            grants.findLive(event, candidate.visitor());
        }
    }
}
