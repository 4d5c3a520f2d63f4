package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The compose healthchecks without a stack: each application's check probes its readiness group, the readiness groups
 * hold the service's own store, and the runner tells a check that can pass from one that cannot (the former
 * {@code /dev/tcp} check under dash, a 503, a closed port). {@code LocalStackTests} runs the same commands against
 * the real stack.
 */
class ComposeHealthcheckTests {

    private static final Path ROOT =
            Path.of(System.getProperty("waitroom.root", "..")).toAbsolutePath().normalize();
    /** A stand-in for what deploy/compose-env.sh writes: every variable docker-compose.yml requires, with a value. */
    private static final Map<String, String> DOT_ENV = dotEnv();
    /** Readiness: the service's own store; the gateway keeps serving without Redis (see its application.yml). */
    private static final Map<String, Set<String>> READINESS = Map.of(
            "queue-service", Set.of("readinessState", "redis"),
            "admission-coordinator", Set.of("readinessState", "db", "redis"),
            "booking-service", Set.of("readinessState", "db"),
            "gateway-service", Set.of("readinessState"));

    private static Map<String, ComposeHealthchecks.Healthcheck> checks;
    private HttpServer server;

    private static Map<String, String> dotEnv() {
        Map<String, String> env = new java.util.HashMap<>();
        for (ServiceSecrets.Secret secret : ServiceSecrets.Secret.values()) {
            env.put(secret.variable(), secret.name().toLowerCase(java.util.Locale.ROOT));
        }
        for (ServiceSecrets.Service service : ServiceSecrets.Service.values()) {
            env.put(ServiceSecrets.credentialFileVariable(service), "c-" + service.shortName());
            env.put(ServiceSecrets.hashFileVariable(service), "h-" + service.shortName());
        }
        env.put("WAITROOM_POSTGRES_PASSWORD", "p");
        env.put("WAITROOM_REDIS_PASSWORD", "r");
        return Map.copyOf(env);
    }

    @BeforeAll
    static void read() throws IOException {
        checks = ComposeHealthchecks.read(ROOT.resolve("docker-compose.yml"), DOT_ENV);
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void everyApplicationProbesItsReadinessGroupOnItsManagementPortWithBashNamedExplicitly() {
        for (String app : READINESS.keySet()) {
            ComposeHealthchecks.Healthcheck check = checks.get(app);
            assertThat(check).as(app).isNotNull();
            // /dev/tcp is bash's: a CMD-SHELL check runs /bin/sh, which is dash in the runtime image.
            assertThat(check.command().subList(0, 2)).as(app).containsExactly("bash", "-c");
            assertThat(check.command().get(2))
                    .as(app)
                    .contains("/actuator/health/readiness")
                    .contains("/dev/tcp/127.0.0.1/${MANAGEMENT_SERVER_PORT:?}");
            // health, metrics and info on the service port + 1000, as under the launcher; never published
            int serverPort = Integer.parseInt(check.environment().get("SERVER_PORT"));
            assertThat(check.environment())
                    .as(app + ": management on its own port")
                    .containsEntry(
                            "MANAGEMENT_SERVER_PORT", String.valueOf(serverPort + StackConfig.MANAGEMENT_OFFSET));
        }
    }

    @Test
    void theRuntimeImageIsTheUbuntuTemurinImageWhoseShellIsDashAndWhichHasBash() throws IOException {
        // The check relies on bash in eclipse-temurin's Ubuntu image (bash is an essential package there).
        String dockerfile = Files.readString(ROOT.resolve("deploy/docker/Dockerfile"));
        assertThat(dockerfile).containsPattern("(?m)^FROM eclipse-temurin:17-jre\\s*$");
    }

    @Test
    @SuppressWarnings("unchecked")
    void readinessGroupsHoldTheServicesOwnStoreAndLivenessNone() throws IOException {
        for (Map.Entry<String, Set<String>> app : READINESS.entrySet()) {
            Map<String, Object> yaml = new Yaml()
                    .load(Files.readString(ROOT.resolve(app.getKey()).resolve("src/main/resources/application.yml")));
            Map<String, Object> health = (Map<String, Object>)
                    ((Map<String, Object>) ((Map<String, Object>) yaml.get("management")).get("endpoint"))
                            .get("health");
            assertThat(((Map<String, Object>) health.get("probes")).get("enabled"))
                    .as(app.getKey())
                    .isEqualTo(true);
            Map<String, Map<String, Object>> groups = (Map<String, Map<String, Object>>) health.get("group");
            assertThat(Set.of(String.valueOf(groups.get("readiness").get("include"))
                            .split("\\s*,\\s*")))
                    .as(app.getKey() + " readiness")
                    .isEqualTo(app.getValue());
            assertThat(String.valueOf(groups.get("liveness").get("include")))
                    .as(app.getKey() + " liveness")
                    .isEqualTo("livenessState");
        }
    }

    @Test
    void theProbePassesOnlyWhenReadinessAnswers200() throws Exception {
        ComposeHealthchecks.Healthcheck probe = checks.get("queue-service");
        int port = serve(200, "{\"status\":\"UP\"}");
        assertThat(probe.mappedTo(Map.of("MANAGEMENT_SERVER_PORT", String.valueOf(port)), Map.of())
                        .run()
                        .healthy())
                .isTrue();
        server.stop(0);

        port = serve(503, "{\"status\":\"OUT_OF_SERVICE\"}");
        ComposeHealthchecks.Outcome unready = probe.mappedTo(
                        Map.of("MANAGEMENT_SERVER_PORT", String.valueOf(port)), Map.of())
                .run();
        assertThat(unready.healthy()).as(unready.toString()).isFalse();
        server.stop(0);

        ComposeHealthchecks.Outcome closed = probe.mappedTo(
                        Map.of("MANAGEMENT_SERVER_PORT", String.valueOf(port)), Map.of())
                .run();
        assertThat(closed.healthy()).as(closed.toString()).isFalse();
    }

    @Test
    void everyApplicationIsProbedOnItsManagementPortNotItsServerPort() throws Exception {
        int port = serve(200, "{\"status\":\"UP\"}");
        int closed = TestPorts.free(1)[0];
        for (String app : READINESS.keySet()) {
            ComposeHealthchecks.Healthcheck probe = checks.get(app);
            assertThat(probe.mappedTo(
                                    Map.of(
                                            "SERVER_PORT",
                                            String.valueOf(closed),
                                            "MANAGEMENT_SERVER_PORT",
                                            String.valueOf(port)),
                                    Map.of())
                            .run()
                            .healthy())
                    .as(app)
                    .isTrue();
            assertThat(probe.mappedTo(
                                    Map.of(
                                            "SERVER_PORT",
                                            String.valueOf(port),
                                            "MANAGEMENT_SERVER_PORT",
                                            String.valueOf(closed)),
                                    Map.of())
                            .run()
                            .healthy())
                    .as(app + " answering on its server port only")
                    .isFalse();
        }
    }

    @Test
    void aContainerWithoutAManagementPortIsNeverHealthy() throws Exception {
        int port = serve(200, "{\"status\":\"UP\"}");
        ComposeHealthchecks.Healthcheck probe = checks.get("booking-service");
        Map<String, String> env = new java.util.LinkedHashMap<>(probe.environment());
        env.remove("MANAGEMENT_SERVER_PORT");
        env.put("SERVER_PORT", String.valueOf(port));
        ComposeHealthchecks.Outcome outcome =
                new ComposeHealthchecks.Healthcheck(probe.service(), probe.command(), env, probe.timeout()).run();
        assertThat(outcome.healthy()).as(outcome.toString()).isFalse();
    }

    @Test
    void theFormerDevTcpCheckCannotPassUnderDashEvenWithTheServiceUp() throws Exception {
        int port = serve(200, "{\"status\":\"UP\"}");
        String former = "exec 3<>/dev/tcp/127.0.0.1/" + port
                + " && printf 'GET /actuator/health HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q UP <&3";
        List<String> command = ComposeHealthchecks.command("former", List.of("CMD-SHELL", former), Map.of());
        assertThat(command).containsExactly("/bin/dash", "-c", former);
        ComposeHealthchecks.Outcome outcome =
                new ComposeHealthchecks.Healthcheck("former", command, Map.of(), Duration.ofSeconds(3)).run();
        assertThat(outcome.healthy()).as(outcome.toString()).isFalse();
    }

    @Test
    void composeInterpolationIsAppliedAsDockerComposeDoes() {
        assertThat(ComposeHealthchecks.interpolate("s", "$$PORT ${A:-x} ${B:-y} $A", Map.of("A", "1")))
                .isEqualTo("$PORT 1 y 1");
        assertThatThrownBy(() -> ComposeHealthchecks.interpolate("s", "${MISSING:?set it}", Map.of()))
                .hasMessageContaining("not set");
        assertThat(ComposeHealthchecks.duration("1m30s")).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void everyHealthcheckIsAFormDockerRuns() {
        assertThat(checks.keySet())
                .contains(
                        "postgres",
                        "redis",
                        "queue-service",
                        "admission-coordinator",
                        "booking-service",
                        "gateway-service");
        checks.values().forEach(check -> {
            assertThat(check.timeout()).as(check.service()).isPositive();
            assertThat(check.command()).as(check.service()).isNotEmpty();
        });
    }

    private int serve(int status, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/actuator/health/readiness", exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server.getAddress().getPort();
    }
}
