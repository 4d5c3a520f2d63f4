package dev.waitroom.gateway.warmup;

import org.springframework.core.env.Environment;

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

    /**
     * The step's share of the warm-up's time against the others' (each gets its weight's part of the time left when
     * it starts): a path whose code is large and only warms over thousands of calls weighs more.
     */
    default int weight() {
        return 1;
    }

    /** Removes what the calls left; runs once after the last call, also after a failure. */
    @Override
    default void close() throws Exception {}

    /**
     * The host a step that calls the gateway's own server uses: loopback, unless the server listens on one address
     * only ({@code SERVER_ADDRESS}).
     */
    static String loopbackHost(Environment environment) {
        String address = environment.getProperty("server.address", "");
        if (address.isBlank() || address.equals("0.0.0.0") || address.equals("::")) {
            return "127.0.0.1";
        }
        return address.contains(":") ? "[" + address + "]" : address;
    }
}
