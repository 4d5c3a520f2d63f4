package dev.waitroom.coordinator.grants.redis;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.coordinator.grants.RegistryUnavailableException;
import dev.waitroom.coordinator.grants.SessionRegistry;
import dev.waitroom.coordinator.ids.SessionId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;

/** {@link SessionRegistry} in Redis; each change is one Lua script over the event's hash-tagged keys. */
@Component
class RedissonSessionRegistry implements SessionRegistry {

    private final RedissonClient redisson;

    private final String admitScript;

    private final String removeScript;

    RedissonSessionRegistry(RedissonClient redisson) {
        this.redisson = redisson;
        this.admitScript = read("redis/session-admit.lua");
        this.removeScript = read("redis/session-remove.lua");
    }

    private static String sessionKey(EventId eventId, SessionId sessionId) {
        return RedisKeys.session(eventId, sessionId.toString());
    }

    private static String tombstoneKey(EventId eventId, SessionId sessionId) {
        return RedisKeys.endedSession(eventId, sessionId.toString());
    }

    @Override
    public boolean admit(EventId eventId, SessionId sessionId, long saleGeneration, Instant expiresAt) {
        Long result = run(() -> script().eval(
                        sessionKey(eventId, sessionId),
                        RScript.Mode.READ_WRITE,
                        this.admitScript,
                        RScript.ReturnType.LONG,
                        List.of(sessionKey(eventId, sessionId), tombstoneKey(eventId, sessionId)),
                        Long.toString(saleGeneration),
                        Long.toString(expiresAt.toEpochMilli())));
        return result != null && result == 1L;
    }

    @Override
    public void remove(EventId eventId, SessionId sessionId, Instant keepTombstoneUntil) {
        run(() -> script().eval(
                        sessionKey(eventId, sessionId),
                        RScript.Mode.READ_WRITE,
                        this.removeScript,
                        RScript.ReturnType.LONG,
                        List.of(sessionKey(eventId, sessionId), tombstoneKey(eventId, sessionId)),
                        Long.toString(keepTombstoneUntil.toEpochMilli())));
    }

    @Override
    public boolean isLive(EventId eventId, SessionId sessionId) {
        return run(() -> this.redisson
                .getBucket(sessionKey(eventId, sessionId), StringCodec.INSTANCE)
                .isExists());
    }

    @Override
    public boolean available() {
        try {
            Long one = script().eval(RScript.Mode.READ_ONLY, "return 1", RScript.ReturnType.LONG);
            return one != null && one == 1L;
        } catch (RuntimeException ex) {
            return false;
        }
    }

    private RScript script() {
        return this.redisson.getScript(StringCodec.INSTANCE);
    }

    private static <T> T run(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException ex) {
            throw new RegistryUnavailableException(ex);
        }
    }

    private static String read(String path) {
        try (var in = new ClassPathResource(path).getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
