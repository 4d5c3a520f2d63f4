package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The launcher's PostgreSQL asks everyone for the password: a new data directory from its first start, a data
 * directory an earlier launcher initialised with {@code trust} from the first start after the upgrade; and it listens
 * on loopback only.
 */
class LocalPostgresTests {

    private static final String PASSWORD = "generated_Password-0123456789";
    private Path dir;

    @BeforeEach
    void createDir() throws IOException {
        dir = Files.createTempDirectory("waitroom-local-postgres");
    }

    @AfterEach
    void deleteDir() throws IOException {
        TestStacks.deleteTree(dir);
    }

    @Test
    void aNewDataDirectoryNeverLetsAnyoneInWithoutThePassword() throws Exception {
        int port = TestPorts.free(1)[0];
        Path data = dir.resolve("postgres");
        try (EmbeddedPostgres postgres = LocalPostgres.start(data, port, PASSWORD, dir.resolve("postgres.log"))) {
            assertRefusedWithoutThePassword(port);
            assertThat(Listeners.boundAddresses(port))
                    .isNotEmpty()
                    .allSatisfy(a -> assertThat(a.isLoopbackAddress()).isTrue());
            assertTheLocalSocketAsksForThePasswordToo(port);
        }
        assertThat(LocalPostgres.trusts(data)).isFalse();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString()))
                .as("the initdb password file is gone")
                .noneMatch(name -> name.contains("password"));

        // a restart keeps the password (the data directory is not initialised again)
        try (EmbeddedPostgres again = LocalPostgres.start(data, port, PASSWORD, dir.resolve("postgres.log"))) {
            assertRefusedWithoutThePassword(port);
        }
    }

    @Test
    void aDataDirectoryFromAnEarlierLauncherGetsThePasswordAtItsNextStart() throws Exception {
        int port = TestPorts.free(1)[0];
        Path data = Files.createDirectories(dir.resolve("postgres"));
        // what the launcher did before: initdb's trust for everyone
        try (EmbeddedPostgres legacy = EmbeddedPostgres.builder()
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                .setPort(port)
                .start()) {
            try (var c = DriverManager.getConnection(url(port), "postgres", "")) {
                c.createStatement().execute("CREATE DATABASE kept");
            }
        }
        assertThat(LocalPostgres.trusts(data)).isTrue();

        try (EmbeddedPostgres postgres = LocalPostgres.start(data, port, PASSWORD, dir.resolve("postgres.log"))) {
            assertRefusedWithoutThePassword(port);
            try (var c = DriverManager.getConnection(url(port), "postgres", PASSWORD);
                    var rs = c.createStatement().executeQuery("SELECT 1 FROM pg_database WHERE datname = 'kept'")) {
                assertThat(rs.next()).as("the data survives the upgrade").isTrue();
            }
        }
        assertThat(LocalPostgres.trusts(data)).isFalse();
    }

    @Test
    void aPasswordThatCouldBreakOutOfItsQuotesIsRefused() {
        assertThatThrownBy(() -> LocalPostgres.start(dir, 1, "x'; DROP ROLE postgres; --", dir.resolve("log")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertRefusedWithoutThePassword(int port) throws SQLException {
        for (String wrong : List.of("", "postgres", "wrong-" + PASSWORD)) {
            assertThatThrownBy(() -> DriverManager.getConnection(url(port), "postgres", wrong)
                            .close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("password");
        }
        try (var c = DriverManager.getConnection(url(port), "postgres", PASSWORD)) {
            assertThat(c.isValid(2)).isTrue();
        }
    }

    /** A local user on the Unix socket (in /tmp, where these binaries put it) gets no more than one on TCP. */
    private static void assertTheLocalSocketAsksForThePasswordToo(int port) throws Exception {
        Path socket = Path.of("/tmp", ".s.PGSQL." + port);
        Path psql = dev.waitroom.testsupport.TestTools.require("psql");
        if (!Files.exists(socket)) {
            System.out.println("local socket not checked: no socket " + socket);
            return;
        }
        assertThat(psql(psql, port, null).exitValue())
                .as("psql on the socket without a password")
                .isNotZero();
        assertThat(psql(psql, port, PASSWORD).exitValue())
                .as("psql on the socket with the password")
                .isZero();
    }

    private static Process psql(Path psql, int port, String password) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(
                        psql.toString(),
                        "-h",
                        "/tmp",
                        "-p",
                        String.valueOf(port),
                        "-U",
                        "postgres",
                        "-w",
                        "-c",
                        "SELECT 1")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().keySet().removeIf(k -> k.startsWith("PG"));
        if (password != null) {
            builder.environment().put("PGPASSWORD", password);
        }
        Process process = builder.start();
        assertThat(process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return process;
    }

    private static String url(int port) {
        return "jdbc:postgresql://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + port + "/postgres";
    }
}
