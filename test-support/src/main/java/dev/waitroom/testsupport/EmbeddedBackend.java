package dev.waitroom.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import redis.embedded.RedisServer;

/**
 * PostgreSQL and Redis from binaries shipped in Maven artifacts, no Docker; Redis is the installed {@code redis-server}
 * where there is one, as the launcher runs it (the bundled build is 6.2.6, without the fix for CVE-2025-49844).
 * PostgreSQL asks for the password generated here ({@link #postgresPassword()}), as the launcher's does; Redis has none,
 * so every test's own client connects as it is.
 */
final class EmbeddedBackend implements RealStores.Backend {

    private static final String POSTGRES_PASSWORD = generatedPassword();

    private final EmbeddedPostgres postgres;
    private final int redisPort;
    private final Path redisDir;
    private RedisServer redis;

    private EmbeddedBackend(EmbeddedPostgres postgres, int redisPort, Path redisDir) {
        this.postgres = postgres;
        this.redisPort = redisPort;
        this.redisDir = redisDir;
    }

    static EmbeddedBackend start() {
        Path passwordFile = null;
        try {
            passwordFile = Files.createTempFile(
                    "waitroom-test-pg",
                    ".pw",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(passwordFile, POSTGRES_PASSWORD + "\n");
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setPort(RealStores.freePort())
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    // initdb's --auth and --pwfile (after the library's "-A trust"): no connection without the password
                    .setLocaleConfig("auth", "scram-sha-256")
                    .setLocaleConfig("pwfile", passwordFile.toString())
                    .setConnectConfig("password", POSTGRES_PASSWORD)
                    .start();
            EmbeddedBackend backend = new EmbeddedBackend(
                    postgres, RealStores.freePort(), RealStores.tempDirectory("waitroom-test-redis"));
            backend.startRedis();
            return backend;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL", e);
        } finally {
            if (passwordFile != null) {
                try {
                    Files.deleteIfExists(passwordFile);
                } catch (IOException ignored) {
                    // a temporary file only its owner reads
                }
            }
        }
    }

    private static String generatedPassword() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    @Override
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + database;
    }

    @Override
    public String postgresUser() {
        return "postgres";
    }

    @Override
    public String postgresPassword() {
        return POSTGRES_PASSWORD;
    }

    @Override
    public String redisHost() {
        return "127.0.0.1";
    }

    @Override
    public int redisPort() {
        return redisPort;
    }

    @Override
    public synchronized void stopRedis() {
        if (redis != null) {
            try {
                redis.stop();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            redis = null;
        }
    }

    @Override
    public synchronized void startRedis() {
        if (redis != null) {
            return;
        }
        try {
            var builder = RedisServer.newRedisServer();
            // the installed redis-server (listed in test-tools.txt: Debian's 7.0.15 has the fix for CVE-2025-49844)
            // rather than the bundled 6.2.6, which runs only where none is installed
            TestTools.find("redis-server").ifPresent(binary -> builder.executableProvider(binary::toFile));
            RedisServer server = builder.bind("127.0.0.1")
                    .port(redisPort)
                    .setting("appendonly yes")
                    .setting("appendfsync everysec")
                    .setting("dir " + redisDir)
                    .setting("save \"\"")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
            redis = server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded Redis on port " + redisPort, e);
        }
    }

    @Override
    public void close() {
        try {
            stopRedis();
        } finally {
            try {
                postgres.close();
            } catch (IOException ignored) {
                // the JVM is exiting; nothing more to do for PostgreSQL
            }
            RealStores.deleteTree(redisDir);
        }
    }
}
