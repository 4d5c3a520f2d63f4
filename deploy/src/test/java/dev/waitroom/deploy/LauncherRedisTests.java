package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.TestTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.embedded.RedisServer;

/**
 * The launcher's Redis (issue #28, finding 9): the installed {@code redis-server} (Debian's 7.0.15 has the fix for
 * CVE-2025-49844) rather than the bundled 6.2.6, which runs only where none is installed; and its append-only file,
 * snapshot and directory readable by the launcher's user alone, as its logs are.
 */
class LauncherRedisTests {

    private Path dataDir;

    @BeforeEach
    void createDataDir() throws IOException {
        dataDir = Files.createTempDirectory("waitroom-launcher-redis");
    }

    @AfterEach
    void deleteDataDir() throws IOException {
        TestStacks.deleteTree(dataDir);
    }

    @Test
    void theInstalledRedisServerIsChosenAndTheBundledOneOnlyWhereNoneIsInstalled() throws IOException {
        Path installed = TestTools.require("redis-server").toRealPath();
        RedisBinary chosen = RedisBinary.choose(Map.of("PATH", "/nonexistent:" + installed.getParent()));
        assertThat(chosen.bundled()).isFalse();
        assertThat(chosen.executable().toRealPath()).isEqualTo(installed);
        RedisBinary fallback = RedisBinary.choose(Map.of("PATH", dataDir.toString()));
        assertThat(fallback.bundled()).as("nothing on PATH: the bundled 6.2").isTrue();
        assertThat(Files.isExecutable(fallback.executable())).isTrue();
        assertThat(RedisBinary.BUNDLED_WARNING)
                .as("one line naming the CVE")
                .contains("CVE-2025-49844", "6.2")
                .doesNotContain("\n");
    }

    /**
     * A Redis started as the launcher starts it, with the installed binary: it reports a version of 7, writes its
     * append-only file and a snapshot, and every file it made is 0600 in a 0700 directory (under the default umask
     * 022 Redis makes them 0644, readable by every user of the machine).
     */
    @Test
    void theLaunchersRedisRunsTheInstalledBinaryAndKeepsItsFilesOwnerOnly() throws Exception {
        RedisBinary binary = RedisBinary.choose(System.getenv());
        assertThat(binary.bundled())
                .as("redis-server is installed here (test-tools.txt)")
                .isFalse();
        Path dir = OwnerOnly.directory(dataDir.resolve("redis"));
        int port = TestPorts.free(1)[0];
        RedisServer server = LocalStack.redisServer(binary, port, "a-password-of-the-test", "64mb", dir)
                .build();
        server.start();
        try (RedisWire redis = new RedisWire(port)) {
            assertThat(redis.call("AUTH", "a-password-of-the-test")).isEqualTo("+OK");
            assertThat(redis.call("SET", "wr:{e}:place", "42")).isEqualTo("+OK");
            assertThat(redis.call("SAVE")).isEqualTo("+OK");
            // the version line of INFO server, read by its length-prefixed bulk reply
            assertThat(version(port)).startsWith("7.");
        } finally {
            server.stop();
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(files(dir))
                        .as("the snapshot and the append-only file exist")
                        .anyMatch(p -> p.getFileName().toString().endsWith(".rdb"))
                        .anyMatch(p -> p.getFileName().toString().contains("appendonly")));
        for (Path path : files(dir)) {
            String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
            if (Files.isDirectory(path)) {
                assertThat(mode).as(path.toString()).isEqualTo("rwx------");
            } else if (path.getFileName().toString().equals(RedisBinary.NAME)) {
                assertThat(mode).as("the wrapper").isEqualTo("rwx------");
            } else {
                assertThat(mode).as(path.toString()).isEqualTo("rw-------");
            }
        }
    }

    @Test
    void theDataDirectoryAndTheLogsAreOwnerOnly() throws IOException {
        Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        LocalStack stack =
                LocalStack.prepare(StackConfig.defaults(TestStacks.ROOT, dataDir, StackConfig.ExternalStores.none()));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir)))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(stack.config().logs())))
                .isEqualTo("rwx------");
    }

    private static String version(int port) throws IOException {
        try (var socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            var out = socket.getOutputStream();
            out.write(
                    "AUTH a-password-of-the-test\r\nINFO server\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.flush();
            var in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(socket.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("redis_version:")) {
                    return line.substring("redis_version:".length());
                }
            }
            return "";
        }
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.toList();
        }
    }
}
