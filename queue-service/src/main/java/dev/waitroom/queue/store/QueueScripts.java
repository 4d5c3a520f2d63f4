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
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;

/**
 * The Lua scripts under {@code scripts/}, called by SHA; a Redis that lost its script cache (restart,
 * failover, SCRIPT FLUSH) gets the script loaded again on NOSCRIPT.
 */
final class QueueScripts {

    enum Script {
        JOIN, STATUS, LEAVE, EVENT_PUT, EVENT_READ, DRAW, CANDIDATES, OFFERS, TRANSITION, COUNTS, SNAPSHOT, LIVENESS;

        String resource() {
            return "scripts/" + name().toLowerCase() + ".lua";
        }

        /** Scripts that answer a visitor's status share its Lua function. */
        boolean answersStatus() {
            return this == JOIN || this == STATUS;
        }
    }

    private record Loaded(String source, String sha) {
    }

    private final RScript script;
    private final Map<Script, Loaded> scripts = new EnumMap<>(Script.class);

    QueueScripts(RedissonClient redisson) {
        this.script = redisson.getScript(StringCodec.INSTANCE);
        String statusLibrary = read("scripts/lib/visitor_status.lua");
        for (Script s : Script.values()) {
            String source = s.answersStatus() ? statusLibrary + "\n" + read(s.resource()) : read(s.resource());
            scripts.put(s, new Loaded(source, sha1(source)));
        }
    }

    /** Runs a script and returns its reply as strings (every script answers a flat array of strings). */
    List<String> run(Script which, String routingKey, List<Object> keys, Object... args) {
        Loaded loaded = scripts.get(which);
        try {
            return script.evalSha(routingKey, RScript.Mode.READ_WRITE, loaded.sha(), RScript.ReturnType.LIST, keys, args);
        } catch (RedisException e) {
            if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
                throw e;
            }
            script.scriptLoad(loaded.source());
            return script.evalSha(routingKey, RScript.Mode.READ_WRITE, loaded.sha(), RScript.ReturnType.LIST, keys, args);
        }
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
