package dev.waitroom.queue.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;

/**
 * The Lua scripts under {@code scripts/}, called by SHA; a Redis that lost its script cache (restart,
 * failover, SCRIPT FLUSH) gets the script loaded again on NOSCRIPT.
 *
 * <p>With {@code replicaAcks > 0} a script that changes the queue is sent with {@code WAIT replicaAcks timeout} on
 * the same connection, and its reply counts only once that many replicas have the change: a failover to one of
 * them keeps it (docs/CONTRACTS.md, "Redis keys and topologies").
 */
final class QueueScripts {

    enum Script {
        JOIN, STATUS, LEAVE, EVENT_PUT, EVENT_READ, DRAW, CANDIDATES, OFFERS, TRANSITION, COUNTS, SNAPSHOT, LIVENESS;

        String resource() {
            return "scripts/" + name().toLowerCase() + ".lua";
        }

        /** Scripts whose change a visitor or the coordinator is told has happened; last-seen is not among them. */
        boolean changesQueue() {
            return this == JOIN || this == LEAVE || this == EVENT_PUT || this == DRAW || this == OFFERS
                    || this == TRANSITION;
        }

        /** Scripts that answer a visitor's status share its Lua function. */
        boolean answersStatus() {
            return this == JOIN || this == STATUS;
        }

        /** Scripts over an event's keys name each key through lib/declared_keys.lua; LIVENESS is given all of its keys. */
        boolean declaresKeys() {
            return this != LIVENESS;
        }
    }

    private record Loaded(String source, String sha) {
    }

    private final RedissonClient redisson;
    private final RScript script;
    private final int replicaAcks;
    private final Duration replicaAckTimeout;
    private final Map<Script, Loaded> scripts = new EnumMap<>(Script.class);

    QueueScripts(RedissonClient redisson, int replicaAcks, Duration replicaAckTimeout) {
        this.redisson = redisson;
        this.script = redisson.getScript(StringCodec.INSTANCE);
        this.replicaAcks = replicaAcks;
        this.replicaAckTimeout = replicaAckTimeout;
        String keysLibrary = read("scripts/lib/declared_keys.lua");
        String statusLibrary = read("scripts/lib/visitor_status.lua");
        for (Script s : Script.values()) {
            StringBuilder source = new StringBuilder();
            if (s.declaresKeys()) {
                source.append(keysLibrary).append('\n');
            }
            if (s.answersStatus()) {
                source.append(statusLibrary).append('\n');
            }
            source.append(read(s.resource()));
            scripts.put(s, new Loaded(source.toString(), sha1(source.toString())));
        }
    }

    /** Runs a script and returns its reply as strings (every script answers a flat array of strings). */
    List<String> run(Script which, String routingKey, List<Object> keys, Object... args) {
        Loaded loaded = scripts.get(which);
        boolean replicated = replicaAcks > 0 && which.changesQueue();
        try {
            return replicated ? evalReplicated(loaded, routingKey, keys, args) : eval(loaded, routingKey, keys, args);
        } catch (RedisException e) {
            if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
                throw e;
            }
            script.scriptLoad(loaded.source());
            return replicated ? evalReplicated(loaded, routingKey, keys, args) : eval(loaded, routingKey, keys, args);
        }
    }

    private List<String> eval(Loaded loaded, String routingKey, List<Object> keys, Object... args) {
        return script.evalSha(routingKey, RScript.Mode.READ_WRITE, loaded.sha(), RScript.ReturnType.LIST, keys, args);
    }

    private List<String> evalReplicated(Loaded loaded, String routingKey, List<Object> keys, Object... args) {
        RBatch batch = redisson.createBatch(BatchOptions.defaults().sync(replicaAcks, replicaAckTimeout));
        RFuture<List<String>> reply = batch.getScript(StringCodec.INSTANCE)
                .evalShaAsync(routingKey, RScript.Mode.READ_WRITE, loaded.sha(), RScript.ReturnType.LIST, keys, args);
        BatchResult<?> result = batch.execute();
        if (result.getSyncedSlaves() < replicaAcks) {
            // the change is on the primary only: a failover now could lose it, so it is not acknowledged (a retry
            // of the same call is idempotent)
            throw new RedisException("change reached " + result.getSyncedSlaves() + " of " + replicaAcks
                    + " replicas within " + replicaAckTimeout.toMillis() + " ms");
        }
        return reply.toCompletableFuture().join();
    }

    private static String read(String resource) {
        try (InputStream in = QueueScripts.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing script " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
