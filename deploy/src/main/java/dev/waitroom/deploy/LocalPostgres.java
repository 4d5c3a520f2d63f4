package dev.waitroom.deploy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The launcher's embedded PostgreSQL: on loopback only, every connection (TCP and the local socket alike) with the
 * superuser's password, {@code scram-sha-256}.
 *
 * <p>A new data directory is initialised with that password and method, so it never accepts a connection without
 * one. A data directory from an earlier launcher (initialised with {@code trust}) is started once as it is, given the
 * password and switched to {@code scram-sha-256} before any service is started.
 */
final class LocalPostgres {

    static final String SUPERUSER = "postgres";
    private static final Pattern SAFE_PASSWORD = Pattern.compile("[A-Za-z0-9_-]{16,}");
    private static final String HBA = """
            # Written by the Waitroom launcher: every connection needs the password (docs/design/security/internal.md).
            # TYPE  DATABASE        USER            ADDRESS                 METHOD
            local   all             all                                     scram-sha-256
            host    all             all             127.0.0.1/32            scram-sha-256
            host    all             all             ::1/128                 scram-sha-256
            local   replication     all                                     scram-sha-256
            host    replication     all             127.0.0.1/32            scram-sha-256
            host    replication     all             ::1/128                 scram-sha-256
            """;

    private LocalPostgres() {}

    /**
     * Starts PostgreSQL on {@code 127.0.0.1:port} with its data in {@code dataDirectory}, the superuser's password
     * {@code password}, its output appended to {@code log}.
     */
    static EmbeddedPostgres start(Path dataDirectory, int port, String password, Path log) throws IOException {
        if (!SAFE_PASSWORD.matcher(password).matches()) {
            throw new IllegalArgumentException("the PostgreSQL password must be 16 or more of [A-Za-z0-9_-]");
        }
        Files.createDirectories(dataDirectory);
        boolean fresh = !Files.exists(dataDirectory.resolve("postgresql.conf"));
        Path passwordFile = dataDirectory.resolveSibling(dataDirectory.getFileName() + ".initdb-password");
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("password_encryption", "scram-sha-256")
                .setServerConfig("max_connections", "200")
                // the start-up check connects as the superuser
                .setConnectConfig("password", password)
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()));
        try {
            if (fresh) {
                // initdb takes these as --auth=... and --pwfile=..., after the library's own "-A trust"
                Files.deleteIfExists(passwordFile);
                Files.createFile(
                        passwordFile,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(passwordFile, password + "\n");
                builder.setLocaleConfig("auth", "scram-sha-256").setLocaleConfig("pwfile", passwordFile.toString());
            }
            EmbeddedPostgres postgres = builder.start();
            if (!fresh && trusts(dataDirectory)) {
                try {
                    secureLegacyDirectory(postgres, dataDirectory, password);
                } catch (IOException | RuntimeException e) {
                    postgres.close();
                    throw e;
                }
            }
            return postgres;
        } finally {
            Files.deleteIfExists(passwordFile);
        }
    }

    /** True when {@code pg_hba.conf} lets any connection in on {@code trust}, as initdb's default does. */
    static boolean trusts(Path dataDirectory) throws IOException {
        for (String line : Files.readAllLines(dataDirectory.resolve("pg_hba.conf"))) {
            String rule = line.replaceFirst("#.*", "").trim();
            if (!rule.isEmpty() && List.of(rule.split("\\s+")).contains("trust")) {
                return true;
            }
        }
        return false;
    }

    private static void secureLegacyDirectory(EmbeddedPostgres postgres, Path dataDirectory, String password)
            throws IOException {
        String url = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
        try (var connection = DriverManager.getConnection(url, SUPERUSER, password);
                var statement = connection.createStatement()) {
            // ALTER ROLE takes no parameters; the password is checked to be base64url above
            statement.execute("ALTER ROLE " + SUPERUSER + " PASSWORD '" + password + "'");
            Files.writeString(dataDirectory.resolve("pg_hba.conf"), HBA);
            statement.execute("SELECT pg_reload_conf()");
        } catch (SQLException e) {
            throw new LocalStack.StackException("could not set the password of the embedded PostgreSQL in "
                    + dataDirectory + ": " + e.getMessage());
        }
    }
}
