package dev.waitroom.queue.redis;

import dev.waitroom.queue.config.QueueProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * Runs the queue's Lua scripts (files under {@code scripts/}), each loaded by the feature that calls it, by SHA; a
 * Redis that lost its script cache (restart, failover, SCRIPT FLUSH) gets the script loaded again on NOSCRIPT.
 *
 * <p>With {@code replicaAcks > 0} a script that changes the queue is sent with {@code WAIT replicaAcks timeout} on
 * the same connection, and its reply counts only once that many replicas have the change: a failover to one of
 * them keeps it (docs/reference/contracts.md, "Redis keys and topologies").
 *
 * <p>Every script is given each key it touches in KEYS, as Redis Cluster requires. Which buckets a call touches can
 * follow from data in Redis (the entry an identity holds, the next sequence, the front of the queue); the caller
 * declares the buckets it expects from hints ({@link KeyHints}), and a script that would touch another answers which,
 * having changed nothing, and is called again declaring them (scripts/lib/declared_keys.lua). Hints only save that
 * second call.
 */
@Component
public class QueueScripts {

    private static final int DECLARE_ATTEMPTS = 8;
    private static final String UNDECLARED_KEYS = "KEYS";
    private static final Pattern BUCKET_NAME = Pattern.compile("([eso]):(\\d+)");

    private final RedissonClient redisson;
    private final RScript script;
    private final int replicaAcks;
    private final Duration replicaAckTimeout;
    private final String keysLibrary = read("scripts/lib/declared_keys.lua");

    public QueueScripts(RedissonClient redisson, QueueProperties properties) {
        this.redisson = redisson;
        this.script = redisson.getScript(StringCodec.INSTANCE);
        this.replicaAcks = properties.redisReplicaAcks();
        this.replicaAckTimeout = properties.redisReplicaAckTimeout();
    }

    /**
     * Loads {@code scripts/<name>.lua} behind {@code preludes} (Lua source: constants generated from Java, or a
     * {@link #library library}); a script that declares its keys gets lib/declared_keys.lua first.
     */
    public LuaScript load(String name, LuaScript.Kind kind, String... preludes) {
        StringBuilder source = new StringBuilder();
        if (kind.declaresKeys()) {
            source.append(keysLibrary).append('\n');
        }
        for (String prelude : preludes) {
            source.append(prelude).append('\n');
        }
        source.append(read("scripts/" + name + ".lua"));
        return new LuaScript(name, source.toString(), sha1(source.toString()), kind);
    }

    /** The source of {@code scripts/<name>.lua}, for a script that runs another inside it as a function. */
    public static String source(String name) {
        return read("scripts/" + name + ".lua");
    }

    /** The source of {@code scripts/lib/<name>.lua}, a function shared by scripts, to pass as a prelude. */
    public static String library(String name) {
        return read("scripts/lib/" + name + ".lua");
    }

    /**
     * Runs a script over an event's keys, declaring again whatever keys it answers were missing (for a script that
     * grows a sequence, each time also the next bucket of a sequence-numbered one, which concurrent calls may reach
     * before the call comes back).
     */
    public List<String> call(LuaScript which, EventKeys event, List<String> keys, Object... args) {
        List<Object> declared = new ArrayList<>(keys);
        for (int attempt = 1; ; attempt++) {
            List<String> r = run(which, event.event(), declared, args);
            if (r.isEmpty() || !r.get(0).equals(UNDECLARED_KEYS)) {
                return r;
            }
            if (attempt == DECLARE_ATTEMPTS) {
                throw new IllegalStateException(which + " still names undeclared keys " + r.subList(1, r.size()));
            }
            for (String name : r.subList(1, r.size())) {
                declared.add(event.named(name));
                Matcher bucket = BUCKET_NAME.matcher(name);
                if (bucket.matches() && which.kind().growsSequence()) {
                    declared.add(event.named(bucket.group(1) + ":" + (Long.parseLong(bucket.group(2)) + 1)));
                }
            }
        }
    }

    /** Runs a script that is given every key it touches; returns its reply (every script answers a flat array of strings). */
    public List<String> run(LuaScript which, String routingKey, List<Object> keys, Object... args) {
        boolean replicated = replicaAcks > 0 && which.kind().changesQueue();
        try {
            return replicated ? evalReplicated(which, routingKey, keys, args) : eval(which, routingKey, keys, args);
        } catch (RedisException e) {
            if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
                throw e;
            }
            script.scriptLoad(which.source());
            return replicated ? evalReplicated(which, routingKey, keys, args) : eval(which, routingKey, keys, args);
        }
    }

    private List<String> eval(LuaScript loaded, String routingKey, List<Object> keys, Object... args) {
        return script.evalSha(routingKey, RScript.Mode.READ_WRITE, loaded.sha(), RScript.ReturnType.LIST, keys, args);
    }

    private List<String> evalReplicated(LuaScript loaded, String routingKey, List<Object> keys, Object... args) {
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
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
