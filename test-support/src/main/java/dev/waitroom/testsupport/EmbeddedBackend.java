package dev.waitroom.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import redis.embedded.RedisServer;

/** PostgreSQL and Redis from binaries shipped in Maven artifacts: no Docker, no system packages. */
final class EmbeddedBackend implements RealStores.Backend {

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
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setPort(RealStores.freePort())
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    .start();
            EmbeddedBackend backend = new EmbeddedBackend(
                    postgres, RealStores.freePort(), RealStores.tempDirectory("waitroom-test-redis"));
            backend.startRedis();
            return backend;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL", e);
        }
    }

    @Override
    public String jdbcUrl(String database) {
        return postgres.getJdbcUrl("postgres", database);
    }

    @Override
    public String postgresUser() {
        return "postgres";
    }

    @Override
    public String postgresPassword() {
        return "postgres";
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
            RedisServer server = RedisServer.newRedisServer()
                    .bind("127.0.0.1")
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
