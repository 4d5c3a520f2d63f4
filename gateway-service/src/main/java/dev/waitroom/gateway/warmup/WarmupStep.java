package dev.waitroom.gateway.warmup;

/**
 * One hot path of a service, called over and over by {@link GatewayWarmup} before the service reports ready. A step works
 * on something private to it (an event id no operator can create, a transaction rolled back) and {@link #close()}
 * removes whatever its calls left, so the warm-up leaves no trace.
 */
public interface WarmupStep extends AutoCloseable {

    /** For the log line that says how far the step got. */
    String name();

    /** The {@code iteration}-th call of the hot path; an exception ends this step (logged), never the start-up. */
    void call(int iteration) throws Exception;

    /** Removes what the calls left; runs once after the last call, also after a failure. */
    @Override
    default void close() throws Exception {}
}
