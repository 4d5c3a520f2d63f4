package dev.waitroom.booking.faults;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A resizable semaphore in front of the connection pool: the "smaller effective pool" fault. With no limit it only
 * counts; with a limit, callers beyond it wait (and show up as pending) or time out.
 */
final class ConnectionGate {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition freed = lock.newCondition();
    private final Duration maxWait;
    private int limit;
    private int inUse;
    private int waiting;

    ConnectionGate(Duration maxWait) {
        this.maxWait = maxWait;
    }

    void acquire() throws SQLTransientConnectionException {
        lock.lock();
        try {
            long nanos = maxWait.toNanos();
            waiting++;
            try {
                while (limit > 0 && inUse >= limit) {
                    if (nanos <= 0) {
                        throw new SQLTransientConnectionException(
                                "no connection within " + maxWait.toMillis() + " ms (pool limited by fault injection)");
                    }
                    nanos = freed.awaitNanos(nanos);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLTransientConnectionException("interrupted while waiting for a connection", e);
            } finally {
                waiting--;
            }
            inUse++;
        } finally {
            lock.unlock();
        }
    }

    void release() {
        lock.lock();
        try {
            inUse--;
            freed.signal();
        } finally {
            lock.unlock();
        }
    }

    void limit(int newLimit) {
        lock.lock();
        try {
            limit = newLimit;
            freed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    record Snapshot(int limit, int inUse, int waiting) {}

    Snapshot snapshot() {
        lock.lock();
        try {
            return new Snapshot(limit, inUse, waiting);
        } finally {
            lock.unlock();
        }
    }
}
