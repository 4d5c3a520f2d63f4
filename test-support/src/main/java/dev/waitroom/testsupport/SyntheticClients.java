package dev.waitroom.testsupport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Addresses for synthetic clients, from 198.18.0.0/15 (RFC 2544's benchmarking block, never routed on the internet):
 * tests and load generators send one per visitor as {@code X-Forwarded-For}, so the gateway's per-address limits see a
 * crowd, not one client (the gateway trusts loopback as a proxy by default).
 */
public final class SyntheticClients {

    /** Addresses in 198.18.0.0/15. */
    public static final int SIZE = 1 << 17;

    private static final AtomicInteger NEXT = new AtomicInteger();

    private SyntheticClients() {}

    /** The {@code n}-th address of the block (wrapping after {@link #SIZE}). */
    public static String address(int n) {
        int offset = Math.floorMod(n, SIZE);
        return "198." + (18 + (offset >> 16)) + "." + ((offset >> 8) & 0xFF) + "." + (offset & 0xFF);
    }

    /** A new address for each call in this JVM (wrapping after {@link #SIZE}). */
    public static String next() {
        return address(NEXT.getAndIncrement());
    }
}
