package dev.waitroom.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/** What the tests that start the launcher's stack share: the checkout, the stack's ports, its directory's fate. */
final class TestStacks {

    /** The checkout, where each service's built jar is found (Surefire sets {@code waitroom.root}). */
    static final Path ROOT =
            Path.of(System.getProperty("waitroom.root", "..")).toAbsolutePath().normalize();

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private TestStacks() {}

    /**
     * An ops API call through the gateway at {@code gatewayUrl} with the stack's ops token: {@code body} is JSON, or
     * null for none.
     */
    static HttpResponse<String> ops(LocalStack stack, String gatewayUrl, String method, String path, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gatewayUrl + path))
                .timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + stack.secrets().opsToken())
                .header("Content-Type", "application/json");
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A stack in {@code dataDir} on the first six of {@code ports}: gateway, queue-service, coordinator, booking,
     * PostgreSQL, Redis (the rest are the caller's, for more instances or a pooler).
     */
    static StackConfig config(Path dataDir, int[] ports, StackConfig.ExternalStores stores) {
        return new StackConfig(ROOT, dataDir, ports[0], ports[1], ports[2], ports[3], ports[4], ports[5], stores);
    }

    /** Copies the stopped stack's logs to {@code target/<name>} for a reader of a failure, then deletes its directory. */
    static void keepLogsAndDelete(Path dataDir, String name) throws IOException {
        if (dataDir == null) {
            return;
        }
        Path kept = Path.of("target", name);
        deleteTree(kept);
        Files.createDirectories(kept);
        Path logs = dataDir.resolve("logs");
        if (Files.isDirectory(logs)) {
            try (Stream<Path> files = Files.list(logs)) {
                for (Path log : files.toList()) {
                    Files.copy(log, kept.resolve(log.getFileName()));
                }
            }
        }
        deleteTree(dataDir);
    }

    /** Deletes a stack's data directory once it is stopped, so test runs leave nothing in /tmp. */
    static void deleteTree(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
