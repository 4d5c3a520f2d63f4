package dev.waitroom.testsupport;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/** PostgreSQL and Redis as containers, used where a Docker engine answers. */
final class ContainerBackend implements RealStores.Backend {

    private final PostgreSQLContainer postgres;
    private final GenericContainer<?> redis;

    private ContainerBackend(PostgreSQLContainer postgres, GenericContainer<?> redis) {
        this.postgres = postgres;
        this.redis = redis;
    }

    static boolean dockerAvailable() {
        // Ask Testcontainers only where an engine could be: it logs an error for every strategy it tries otherwise.
        boolean socket = java.nio.file.Files.exists(java.nio.file.Path.of("/var/run/docker.sock"));
        boolean host = System.getenv("DOCKER_HOST") != null;
        if (!socket && !host) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static ContainerBackend start() {
        PostgreSQLContainer postgres = new PostgreSQLContainer(DockerImageName.parse("postgres:17-alpine"))
                .withCommand("postgres", "-c", "max_connections=300", "-c", "fsync=off");
        GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse("redis:7.4-alpine"))
                .withCommand("redis-server", "--appendonly", "yes")
                .withExposedPorts(6379);
        postgres.start();
        redis.start();
        return new ContainerBackend(postgres, redis);
    }

    @Override
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + postgres.getHost() + ":" + postgres.getMappedPort(5432) + "/" + database;
    }

    @Override
    public String postgresUser() {
        return postgres.getUsername();
    }

    @Override
    public String postgresPassword() {
        return postgres.getPassword();
    }

    @Override
    public String redisHost() {
        return redis.getHost();
    }

    @Override
    public int redisPort() {
        return redis.getMappedPort(6379);
    }

    @Override
    public void stopRedis() {
        // Pausing keeps the mapped port and the data; the service sees an unreachable Redis.
        DockerClientFactory.instance()
                .client()
                .pauseContainerCmd(redis.getContainerId())
                .exec();
    }

    @Override
    public void startRedis() {
        DockerClientFactory.instance()
                .client()
                .unpauseContainerCmd(redis.getContainerId())
                .exec();
    }

    @Override
    public void close() {
        redis.stop();
        postgres.stop();
    }
}
