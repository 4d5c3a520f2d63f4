package dev.waitroom.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The real queue-service, started from its built jar as a child JVM, so a test can hold an in-memory stand-in of the
 * queue against the real thing: run one scenario suite against both (docs/reference/contracts.md,
 * "queue-service internal API"; the gateway's {@code QueueContractScenarios} does).
 *
 * <p>{@link #shared()} is one process per test JVM on the Redis of {@link RealStores}, started on first use and
 * stopped when the JVM exits; scenarios keep apart by using a fresh event id each. {@link #start(String...)} starts
 * one of your own on another Redis (for example {@link LocalRedis#springProperties()}), which you {@link #close()}.
 *
 * <p>Each process gets fresh secrets: speak to it as the gateway ({@link #gatewayCredential()}) or the coordinator
 * ({@link #coordinatorCredential()}) in {@code X-Waitroom-Internal}, its only callers, each allowed only its own routes
 * (docs/design/security/internal.md#who-may-call-what); verify the queue tickets it issues ({@code X-Waitroom-Ticket}) with {@link #ticketKey()}. It listens on 127.0.0.1
 * only, its health and metrics on a management port of their own ({@link #managementUrl()}), as under the launcher.
 *
 * <p>The jar is the {@code dev.waitroom:queue-service} artifact on the test class path (declare it as a test dependency
 * that brings nothing else: {@code <exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion>
 * </exclusions>}, as {@code deploy/pom.xml} does), else {@code queue-service/target} of the checkout, else the local
 * Maven repository. It runs from a copy, so a rebuild while the tests run cannot pull classes out from under it; its
 * output goes to {@link #log()}.
 */
public final class QueueServiceProcess implements AutoCloseable {

    private static final Duration HEALTHY_WITHIN = Duration.ofSeconds(120);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static volatile QueueServiceProcess shared;

    private final Process process;
    private final Path dir;
    private final URI baseUrl;
    private final URI managementUrl;
    private final ServiceCredentials gateway;
    private final ServiceCredentials coordinator;
    private final String ticketKey;
    private final Thread shutdownHook = new Thread(this::stop, "queue-service-process-stop");

    private QueueServiceProcess(List<String> springProperties) {
        this.gateway = ServiceCredentials.generate("gateway");
        this.coordinator = ServiceCredentials.generate("coordinator");
        this.ticketKey = randomBase64(32);
        this.dir = RealStores.tempDirectory("waitroom-queue-service");
        int port = RealStores.freePort();
        int managementPort = RealStores.freePort();
        this.baseUrl = URI.create("http://127.0.0.1:" + port);
        this.managementUrl = URI.create("http://127.0.0.1:" + managementPort);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xss512k",
                "-Xmx384m",
                "-jar",
                copyOfJar().toString()));
        springProperties.forEach(property -> command.add("--" + property));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log().toFile());
        builder.environment().put("SERVER_PORT", Integer.toString(port));
        builder.environment().put("SERVER_ADDRESS", "127.0.0.1");
        builder.environment().put("MANAGEMENT_SERVER_PORT", Integer.toString(managementPort));
        builder.environment().put("MANAGEMENT_SERVER_ADDRESS", "127.0.0.1");
        builder.environment().put("WAITROOM_SECURITY_CALLERS_GATEWAY", gateway.hash());
        builder.environment().put("WAITROOM_SECURITY_CALLERS_COORDINATOR", coordinator.hash());
        // the fakes' contract suites want the service up, not fast: its warm-up would only cost seconds per start
        builder.environment().put("WAITROOM_WARMUP_ENABLED", "false");
        builder.environment().put("WAITROOM_SECURITY_TICKETKEY", ticketKey);
        try {
            this.process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the queue-service", e);
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            awaitHealthy();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The queue-service of this test JVM, on the Redis of {@link RealStores}; started on first use. */
    public static QueueServiceProcess shared() {
        QueueServiceProcess p = shared;
        if (p == null) {
            synchronized (QueueServiceProcess.class) {
                p = shared;
                if (p == null) {
                    p = new QueueServiceProcess(List.of(
                            "spring.data.redis.host=" + RealStores.redisHost(),
                            "spring.data.redis.port=" + RealStores.redisPort()));
                    shared = p;
                }
            }
        }
        return p;
    }

    /**
     * A queue-service of your own with these Spring properties ({@code name=value}, for example
     * {@link LocalRedis#springProperties()}); healthy when this returns. Close it when done.
     */
    public static QueueServiceProcess start(String... springProperties) {
        return new QueueServiceProcess(List.of(springProperties));
    }

    /** Where it listens, {@code http://127.0.0.1:<port>}. */
    public URI baseUrl() {
        return baseUrl;
    }

    /** Where its health, metrics and info answer, {@code http://127.0.0.1:<management port>}. */
    public URI managementUrl() {
        return managementUrl;
    }

    /** The gateway's {@code X-Waitroom-Internal}: the visitor routes, the snapshot and liveness. */
    public String gatewayCredential() {
        return gateway.credential();
    }

    /** The coordinator's {@code X-Waitroom-Internal}: the event state, the draw, candidates, offers, transitions. */
    public String coordinatorCredential() {
        return coordinator.credential();
    }

    /** Base64 of the HMAC key of the queue tickets it issues. */
    public String ticketKey() {
        return ticketKey;
    }

    /** Its standard output and error. */
    public Path log() {
        return dir.resolve("queue-service.log");
    }

    /** Stops the process; closing the shared one makes the next {@link #shared()} start a new one. */
    @Override
    public void close() {
        synchronized (QueueServiceProcess.class) {
            if (shared == this) {
                shared = null;
            }
        }
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyExiting) {
            // the hook runs anyway
        }
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        RealStores.deleteTree(dir);
    }

    private void awaitHealthy() {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(managementUrl.resolve("/actuator/health"))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.nanoTime() + HEALTHY_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the queue-service exited with code " + process.exitValue() + ":\n" + tailOfLog());
            }
            try {
                HttpResponse<String> response = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException(
                "the queue-service was not healthy within " + HEALTHY_WITHIN.toSeconds() + " s:\n" + tailOfLog());
    }

    private String tailOfLog() {
        try {
            List<String> lines = Files.readAllLines(log());
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log at " + log() + ")";
        }
    }

    private Path copyOfJar() {
        Path jar = jar();
        Path copy = dir.resolve(jar.getFileName());
        try {
            Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not copy " + jar, e);
        }
        return copy;
    }

    /** The built queue-service jar: from the test class path, the checkout's target folder, or the local repository. */
    static Path jar() {
        return onClassPath()
                .or(() -> builtIn(Path.of("").toAbsolutePath()))
                .or(QueueServiceProcess::inLocalRepository)
                .orElseThrow(() -> new IllegalStateException("no queue-service jar: declare dev.waitroom:queue-service "
                        + "as a test dependency, or build it (./mvnw -pl queue-service -DskipTests package)"));
    }

    private static Optional<Path> onClassPath() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path", ""));
        return Stream.of(classPath.split(File.pathSeparator))
                .map(Path::of)
                .filter(p -> isServiceJar(p.getFileName()))
                .filter(Files::isRegularFile)
                .findFirst();
    }

    /** {@code queue-service/target} next to the module the tests run in (or in it). */
    private static Optional<Path> builtIn(Path moduleDir) {
        for (Path dir = moduleDir; dir != null; dir = dir.getParent()) {
            Path target = dir.resolve("queue-service").resolve("target");
            if (Files.isDirectory(target)) {
                return newestServiceJar(target);
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> inLocalRepository() {
        Path artifact =
                Path.of(System.getProperty("user.home"), ".m2", "repository", "dev", "waitroom", "queue-service");
        if (!Files.isDirectory(artifact)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(artifact)) {
            return versions.filter(Files::isDirectory)
                    .map(QueueServiceProcess::newestServiceJar)
                    .flatMap(Optional::stream)
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> newestServiceJar(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> isServiceJar(p.getFileName()))
                    .filter(Files::isRegularFile)
                    .max(Comparator.comparingLong(p -> p.toFile().lastModified()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean isServiceJar(Path name) {
        String file = name == null ? "" : name.toString();
        return file.startsWith("queue-service-")
                && file.endsWith(".jar")
                && !file.endsWith("-plain.jar")
                && !file.endsWith("-sources.jar")
                && !file.endsWith("-javadoc.jar")
                && !file.endsWith("-tests.jar");
    }

    private static String randomBase64(int bytes) {
        byte[] secret = new byte[bytes];
        RANDOM.nextBytes(secret);
        return Base64.getEncoder().encodeToString(secret);
    }
}
