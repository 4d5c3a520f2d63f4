package dev.waitroom.coordinator.integration;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.coordinator.event.EventNotFoundException;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.security.MessageDigest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The integration credentials of events (table {@code integration_credentials}, docs/integration/shop-signals.md): ops
 * create, list and revoke them; a shop signal is checked against them. A credential is scoped to one event and to the
 * shop signals only: nothing else in Waitroom reads this table, so it opens neither the ops API nor an internal route.
 * At most {@value #MAX_LIVE} are live per event, enough for a rotation without a gap.
 */
@Service
public class IntegrationCredentials {

    /** Live credentials per event: the one in use and its successor during a rotation. */
    public static final int MAX_LIVE = 2;

    /** A label is free text for ops; plain and short. */
    public static final int MAX_LABEL = 64;

    /** last_used_at is a hint for rotations, not a log: written at most this often per credential. */
    private static final Duration LAST_USED_RESOLUTION = Duration.ofMinutes(1);

    /** The ops audit logger of the web kit, so a credential's id stands next to the call's audit line. */
    private static final Logger OPS_AUDIT = LoggerFactory.getLogger("dev.waitroom.web.OpsAudit");

    /** Compared against when the id is unknown, so an unknown id costs the same hash and comparison. */
    private static final byte[] NO_HASH = new byte[32];

    private static final String COLUMNS =
            "credential_id, event_id, label, created_at, created_by, revoked_at, revoked_by, last_used_at";

    private final JdbcClient jdbc;

    private final TransactionTemplate transactions;

    private final Clock clock;

    IntegrationCredentials(JdbcClient jdbc, TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** A new credential and its secret, which nothing can show again. */
    public record Created(IntegrationCredential credential, IntegrationSecret secret) {}

    /**
     * Creates a live credential for {@code event}; 409 {@code integration-credential-limit} when {@value #MAX_LIVE}
     * are live already (revoke one first), 404 for an unknown event. Counted under the event's row lock, so two
     * concurrent creations never make a third.
     */
    public Created create(EventId event, String label, String actor) {
        String checkedLabel = TextFields.optional("label", label, MAX_LABEL);
        IntegrationSecret secret = IntegrationSecret.random();
        Instant now = this.clock.instant();
        IntegrationCredential created = this.transactions.execute(status -> {
            lockEvent(event);
            long live = this.jdbc
                    .sql("select count(*) from integration_credentials where event_id = :e and revoked_at is null")
                    .param("e", event.value())
                    .query(Long.class)
                    .single();
            if (live >= MAX_LIVE) {
                throw new CoordinatorException(
                        ProblemType.INTEGRATION_CREDENTIAL_LIMIT,
                        "Event " + event + " has " + MAX_LIVE + " live integration credentials: revoke one"
                                + " (DELETE /admin/events/" + event + "/integration-credentials/{id}) first.");
            }
            this.jdbc
                    .sql("""
                            insert into integration_credentials
                                (credential_id, event_id, secret_sha256, label, created_at, created_by)
                            values (:id, :e, :hash, :label, :now, :actor)
                            """)
                    .param("id", secret.credentialId())
                    .param("e", event.value())
                    .param("hash", secret.sha256())
                    .param("label", checkedLabel)
                    .param("now", Timestamp.from(now))
                    .param("actor", actor)
                    .update();
            return find(secret.credentialId()).orElseThrow();
        });
        OPS_AUDIT.info("Integration credential {} created for event {} by {}", created.credentialId(), event, actor);
        return new Created(created, secret);
    }

    /** The event's credentials, live and revoked, newest first; 404 for an unknown event. */
    public List<IntegrationCredential> list(EventId event) {
        requireEvent(event);
        return this.jdbc
                .sql("select " + COLUMNS
                        + " from integration_credentials where event_id = :e order by created_at desc, credential_id")
                .param("e", event.value())
                .query(IntegrationCredentials::map)
                .list();
    }

    /**
     * Revokes a credential of {@code event}: from the next signal on it is refused. Idempotent (a revoked one stays as
     * it was revoked); 404 {@code integration-credential-not-found} for an id the event does not have.
     */
    public IntegrationCredential revoke(EventId event, String credentialId, String actor) {
        requireEvent(event);
        int changed = this.jdbc
                .sql("""
                        update integration_credentials set revoked_at = :now, revoked_by = :actor
                         where credential_id = :id and event_id = :e and revoked_at is null
                        """)
                .param("now", Timestamp.from(this.clock.instant()))
                .param("actor", actor)
                .param("id", credentialId)
                .param("e", event.value())
                .update();
        IntegrationCredential credential = find(credentialId)
                .filter(c -> c.eventId().equals(event))
                .orElseThrow(() -> new CoordinatorException(
                        ProblemType.INTEGRATION_CREDENTIAL_NOT_FOUND,
                        "Event " + event + " has no integration credential with that id."));
        if (changed == 1) {
            OPS_AUDIT.info("Integration credential {} of event {} revoked by {}", credentialId, event, actor);
        }
        return credential;
    }

    /**
     * What {@link #check} found: the outcome and, when {@link CredentialCheck#ACCEPTED}, the credential's id and when it
     * was last used (for {@link #recordUse}).
     */
    public record Checked(CredentialCheck outcome, String credentialId, Instant lastUsedAt) {

        static Checked refused(CredentialCheck outcome) {
            return new Checked(outcome, null, null);
        }
    }

    /**
     * Checks the credential a shop signal for {@code eventId} (as the path names it) presents; reads only. The
     * secret's hash is compared in constant time, and an unknown id is compared against a hash of zeros, so the time
     * taken does not tell which ids exist.
     */
    public Checked check(String eventId, Optional<IntegrationSecret> presented) {
        if (presented.isEmpty()) {
            return Checked.refused(CredentialCheck.MISSING);
        }
        IntegrationSecret secret = presented.get();
        Optional<Stored> stored = this.jdbc
                .sql("select event_id, secret_sha256, revoked_at, last_used_at from integration_credentials"
                        + " where credential_id = :id")
                .param("id", secret.credentialId())
                .query((rs, n) -> new Stored(
                        rs.getString("event_id"),
                        rs.getBytes("secret_sha256"),
                        rs.getTimestamp("revoked_at") != null,
                        instant(rs, "last_used_at")))
                .optional();
        boolean matches = MessageDigest.isEqual(stored.map(Stored::hash).orElse(NO_HASH), secret.sha256());
        if (stored.isEmpty() || !matches || stored.get().revoked()) {
            return Checked.refused(CredentialCheck.NOT_ACCEPTED);
        }
        if (!stored.get().eventId().equals(eventId)) {
            return Checked.refused(CredentialCheck.OTHER_EVENT);
        }
        return new Checked(
                CredentialCheck.ACCEPTED, secret.credentialId(), stored.get().lastUsedAt());
    }

    /**
     * Records that an accepted credential carried a signal that succeeded (its {@code lastUsedAt}, which ops watch
     * during a rotation); written at most once a minute, and never for a refused signal, which changes nothing.
     */
    public void recordUse(Checked accepted) {
        if (accepted.outcome() != CredentialCheck.ACCEPTED) {
            return;
        }
        Instant now = this.clock.instant();
        Instant lastUsedAt = accepted.lastUsedAt();
        if (lastUsedAt != null && lastUsedAt.plus(LAST_USED_RESOLUTION).isAfter(now)) {
            return;
        }
        String credentialId = accepted.credentialId();
        this.jdbc
                .sql("update integration_credentials set last_used_at = :now where credential_id = :id"
                        + " and (last_used_at is null or last_used_at < :due)")
                .param("now", Timestamp.from(now))
                .param("due", Timestamp.from(now.minus(LAST_USED_RESOLUTION)))
                .param("id", credentialId)
                .update();
    }

    private record Stored(String eventId, byte[] hash, boolean revoked, Instant lastUsedAt) {}

    private Optional<IntegrationCredential> find(String credentialId) {
        return this.jdbc
                .sql("select " + COLUMNS + " from integration_credentials where credential_id = :id")
                .param("id", credentialId)
                .query(IntegrationCredentials::map)
                .optional();
    }

    private void lockEvent(EventId event) {
        boolean exists = this.jdbc
                .sql("select event_id from events where event_id = :id for update")
                .param("id", event.value())
                .query(String.class)
                .optional()
                .isPresent();
        if (!exists) {
            throw new EventNotFoundException(event);
        }
    }

    private void requireEvent(EventId event) {
        boolean exists = this.jdbc
                        .sql("select count(*) from events where event_id = :id")
                        .param("id", event.value())
                        .query(Long.class)
                        .single()
                > 0;
        if (!exists) {
            throw new EventNotFoundException(event);
        }
    }

    private static IntegrationCredential map(ResultSet rs, int row) throws SQLException {
        return new IntegrationCredential(
                rs.getString("credential_id"),
                EventId.of(rs.getString("event_id")),
                rs.getString("label"),
                instant(rs, "created_at"),
                rs.getString("created_by"),
                instant(rs, "revoked_at"),
                rs.getString("revoked_by"),
                instant(rs, "last_used_at"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
