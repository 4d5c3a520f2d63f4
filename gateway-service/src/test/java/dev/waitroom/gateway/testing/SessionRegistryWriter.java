package dev.waitroom.gateway.testing;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.testsupport.RealStores;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Instant;

/** Writes the live-session registry in the real Redis the way the coordinator does (docs/reference/contracts.md). */
public final class SessionRegistryWriter {

    private final RedisCommands<String, String> redis;

    SessionRegistryWriter() {
        RedisClient client = RedisClient.create(RedisURI.create(RealStores.redisHost(), RealStores.redisPort()));
        StatefulRedisConnection<String, String> connection = client.connect();
        this.redis = connection.sync();
    }

    public static String key(String eventId, String sessionId) {
        return RedisKeys.session(EventId.of(eventId), sessionId);
    }

    public void live(String eventId, String sessionId, long generation, Instant expiresAt) {
        redis.set(key(eventId, sessionId), Long.toString(generation), SetArgs.Builder.pxAt(expiresAt.toEpochMilli()));
    }

    public void end(String eventId, String sessionId) {
        redis.del(key(eventId, sessionId));
    }

    public boolean isLive(String eventId, String sessionId) {
        return redis.exists(key(eventId, sessionId)) == 1;
    }
}
