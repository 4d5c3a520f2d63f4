package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

class RealStoresTests {

    @Test
    void postgresAnswersAndDatabasesAreCreatedOnce() throws Exception {
        String url = RealStores.postgresJdbcUrl("support_check");
        assertThat(RealStores.postgresJdbcUrl("support_check")).isEqualTo(url);
        try (var c = DriverManager.getConnection(url, RealStores.postgresUser(), RealStores.postgresPassword());
                var rs = c.createStatement().executeQuery("SELECT current_database(), version()")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("support_check");
            assertThat(rs.getString(2)).startsWith("PostgreSQL");
        }
    }

    @Test
    void postgresRefusesAConnectionWithoutThePassword() {
        String url = RealStores.postgresJdbcUrl("support_check");
        for (String wrong : new String[] {"", "postgres", "not-" + RealStores.postgresPassword()}) {
            assertThatThrownBy(() -> DriverManager.getConnection(url, RealStores.postgresUser(), wrong)
                            .close())
                    .isInstanceOf(java.sql.SQLException.class);
        }
    }

    @Test
    void rejectsDatabaseNamesThatAreNotIdentifiers() {
        assertThatThrownBy(() -> RealStores.postgresJdbcUrl("x; DROP DATABASE postgres"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void redisKeepsItsDataAcrossARestart() throws Exception {
        assertThat(redis("SET", "wr:{support}:k", "kept")).isEqualTo("+OK");
        RealStores.stopRedis();
        assertThatThrownBy(() -> redis("PING")).isInstanceOf(java.io.IOException.class);
        RealStores.startRedis();
        assertThat(redis("GET", "wr:{support}:k")).isEqualTo("$4");
    }

    /**
     * Where {@code redis-server} is installed (test-tools.txt lists it), the tests' Redis is that one, not the bundled
     * 6.2.6 without the fix for CVE-2025-49844.
     */
    @Test
    void redisIsTheInstalledRedisServerWhereThereIsOne() throws Exception {
        var installed = TestTools.find("redis-server");
        org.junit.jupiter.api.Assumptions.assumeTrue(installed.isPresent(), "no redis-server installed");
        try (Socket socket = new Socket(RealStores.redisHost(), RealStores.redisPort())) {
            socket.setSoTimeout(2000);
            socket.getOutputStream().write("INFO server\r\n".getBytes(StandardCharsets.UTF_8));
            var in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String version = null;
            for (String line = in.readLine(); line != null && version == null; line = in.readLine()) {
                if (line.startsWith("redis_version:")) {
                    version = line.substring("redis_version:".length());
                }
            }
            assertThat(version).as("INFO server's redis_version").startsWith("7.");
        }
    }

    /** A minimal RESP exchange: enough to prove a real Redis answers, without a client library. */
    private static String redis(String... command) throws Exception {
        try (Socket socket = new Socket(RealStores.redisHost(), RealStores.redisPort())) {
            socket.setSoTimeout(2000);
            StringBuilder request = new StringBuilder("*" + command.length + "\r\n");
            for (String part : command) {
                request.append('$')
                        .append(part.getBytes(StandardCharsets.UTF_8).length)
                        .append("\r\n")
                        .append(part)
                        .append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            var in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            return in.readLine();
        }
    }
}
