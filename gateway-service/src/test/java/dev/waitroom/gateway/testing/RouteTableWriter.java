package dev.waitroom.gateway.testing;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.routes.Protection;
import dev.waitroom.contract.routes.RouteTable;
import dev.waitroom.testsupport.RealStores;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Writes the route table in the real Redis the way the coordinator does (docs/CONTRACTS.md), newer every time. */
public final class RouteTableWriter {

    private static final AtomicLong VERSION = new AtomicLong(System.currentTimeMillis() * 1000);

    private final RedisCommands<String, String> redis;

    private final Map<EventId, Protection> protections = new LinkedHashMap<>();

    public RouteTableWriter() {
        RedisClient client = RedisClient.create(RedisURI.create(RealStores.redisHost(), RealStores.redisPort()));
        this.redis = client.connect().sync();
    }

    /** Sets what {@code eventId} protects (null: nothing) and writes the whole table; returns its version. */
    public synchronized long protect(String eventId, Protection protection) {
        if (protection == null) {
            protections.remove(EventId.of(eventId));
        } else {
            protections.put(EventId.of(eventId), protection);
        }
        RouteTable table = RouteTable.of(VERSION.incrementAndGet(), protections);
        redis.set(RedisKeys.ROUTES, table.encode());
        return table.version();
    }

    /** Writes an empty table: nothing protected by a table. */
    public synchronized void clear() {
        protections.clear();
        redis.set(
                RedisKeys.ROUTES,
                RouteTable.of(VERSION.incrementAndGet(), Map.of()).encode());
    }
}
