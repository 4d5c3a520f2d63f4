package dev.waitroom.coordinator.tick;

import java.time.Duration;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The ticker: how often it runs, the lease it holds per event (at most 5 s, renewed every {@code renewEvery}), how
 * often it pushes event state to the queue, and this instance's lease owner name.
 *
 * @param instanceId this instance's lease owner name, shown to operators; empty: host, port, pid and a random suffix
 * @param tickInterval how often the ticker runs: expiries, lease renewal, offers, pushes
 * @param leaseDuration how long a lease on an event lasts unless renewed, within (0, 5s]; a stopped leader's events
 *     are taken over after it
 * @param renewEvery how often the leader renews its leases, shorter than the lease
 * @param pausedTransactionTimeout how long PostgreSQL lets one of this instance's transactions sit idle before it ends
 *     the session, shorter than the lease: a process paused while it holds row locks (a SIGSTOP, a frozen VM, a long
 *     GC pause) loses them before its lease lapses, so the next leader is never stuck behind it; longer than a
 *     queue-service call may take (connect and read timeouts), as archiving and deleting call it inside a transaction
 * @param pushEvery how often the leader pushes each event's state (phase, mode, rate, rules) to the queue-service even
 *     when nothing changed
 * @param expiryBatch the most overdue offers and sessions one tick expires
 * @param tickerEnabled whether this instance runs the ticker at all (tests tick by hand)
 */
@ConfigurationProperties("waitroom.coordinator")
public record CoordinatorProperties(
        String instanceId,
        @DefaultValue("250ms") Duration tickInterval,
        @DefaultValue("5s") Duration leaseDuration,
        @DefaultValue("1s") Duration renewEvery,
        @DefaultValue("3s") Duration pausedTransactionTimeout,
        @DefaultValue("3s") Duration pushEvery,
        @DefaultValue("500") int expiryBatch,
        @DefaultValue("true") boolean tickerEnabled) {

    public CoordinatorProperties {
        if (leaseDuration.compareTo(Duration.ofSeconds(5)) > 0
                || leaseDuration.isNegative()
                || leaseDuration.isZero()) {
            throw new IllegalArgumentException("waitroom.coordinator.lease-duration must be within (0, 5s]");
        }
        if (renewEvery.compareTo(leaseDuration) >= 0) {
            throw new IllegalArgumentException("waitroom.coordinator.renew-every must be shorter than the lease");
        }
        if (pausedTransactionTimeout.toMillis() < 1 || pausedTransactionTimeout.compareTo(leaseDuration) >= 0) {
            throw new IllegalArgumentException(
                    "waitroom.coordinator.paused-transaction-timeout must be at least 1ms and shorter than the lease");
        }
        if (expiryBatch < 1) {
            throw new IllegalArgumentException("waitroom.coordinator.expiry-batch must be positive");
        }
    }

    /** This instance's lease owner name: configured, or host, port and pid (so ops can tell who leads). */
    public CoordinatorProperties withDefaultInstance(String host, String port) {
        if (this.instanceId != null && !this.instanceId.isBlank()) {
            return this;
        }
        String id = host + ":" + port + "/pid-" + ProcessHandle.current().pid() + "/"
                + UUID.randomUUID().toString().substring(0, 8);
        return new CoordinatorProperties(
                id,
                this.tickInterval,
                this.leaseDuration,
                this.renewEvery,
                this.pausedTransactionTimeout,
                this.pushEvery,
                this.expiryBatch,
                this.tickerEnabled);
    }

    public CoordinatorProperties withInstance(String id, Duration lease, Duration renew) {
        return new CoordinatorProperties(
                id,
                this.tickInterval,
                lease,
                renew,
                this.pausedTransactionTimeout.compareTo(lease) < 0 ? this.pausedTransactionTimeout : lease.dividedBy(2),
                this.pushEvery,
                this.expiryBatch,
                this.tickerEnabled);
    }
}
