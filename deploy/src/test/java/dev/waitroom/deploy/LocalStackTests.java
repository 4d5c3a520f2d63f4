package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Starts the launcher's real stack (embedded PostgreSQL and Redis, the four service jars as processes) as a plain
 * {@code ./waitroom run} does, walks a visitor through the whole journey over HTTP through the gateway (the payment
 * settled by a signed webhook, as a real provider does: a plain run has no simulator), holds it to "internal means
 * internal" (docs/design/security/internal.md), then stops it and checks nothing is left.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@StackTest
class LocalStackTests {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final List<String> SECRETS_SEEN = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static LocalStack stack;
    private static Path dataDir;

    @BeforeAll
    static void startStack() throws Exception {
        dataDir = Files.createTempDirectory("waitroom-stack-test");
        stack = LocalStack.start(TestStacks.config(dataDir, TestPorts.free(6), StackConfig.ExternalStores.none()));
    }

    @AfterAll
    static void stopStack() throws IOException {
        try {
            if (stack != null) {
                stack.close();
                assertLogsAndRedisAreOwnerOnly();
            }
        } finally {
            TestStacks.deleteTree(dataDir);
        }
    }

    /**
     * The stack's Redis is the installed {@code redis-server} (Debian's, with the fix for CVE-2025-49844), not the
     * bundled 6.2.6, and the stack works on it (every other test here).
     */
    @Test
    @Order(1)
    void theStacksRedisIsTheInstalledRedisServer() throws Exception {
        // Debian's redis-server is a link to redis-check-rdb, which acts by the name it was started under
        Path installed =
                dev.waitroom.testsupport.TestTools.require("redis-server").toRealPath();
        List<String> redis = new ArrayList<>();
        ProcessHandle.current().descendants().forEach(p -> {
            String command = p.info().command().orElse("");
            if (command.contains("redis")) {
                Path exe = Path.of("/proc", String.valueOf(p.pid()), "exe");
                try {
                    redis.add(exe.toRealPath().toString());
                } catch (IOException gone) {
                    redis.add(command);
                }
            }
        });
        assertThat(redis).as("the stack's Redis processes").containsExactly(installed.toString());
    }

    /** After a run: every log and every file of Redis is 0600, their directories 0700 (issue #28, finding 9). */
    private static void assertLogsAndRedisAreOwnerOnly() throws IOException {
        for (Path dir : List.of(stack.config().logs(), dataDir.resolve("redis"))) {
            try (var walk = Files.walk(dir)) {
                for (Path path : walk.toList()) {
                    String mode =
                            java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
                    boolean executable = Files.isDirectory(path)
                            || path.getFileName().toString().equals(RedisBinary.NAME);
                    assertThat(mode).as(path.toString()).isEqualTo(executable ? "rwx------" : "rw-------");
                }
            }
        }
    }

    @Test
    @Order(1)
    void everyProcessServesHealthMetricsAndInfoOnItsManagementPortOnly() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String process : stack.config().servicePorts().keySet()) {
            String management = stack.managementUrl(process);
            HttpResponse<String> health =
                    http.send(get(management + "/actuator/health"), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).as(process).isEqualTo(200);
            assertThat(health.body()).as(process).contains("\"UP\"");
            HttpResponse<String> prometheus =
                    http.send(get(management + "/actuator/prometheus"), HttpResponse.BodyHandlers.ofString());
            assertThat(prometheus.statusCode()).as(process).isEqualTo(200);
            assertThat(prometheus.body()).as(process).contains("jvm_memory_used_bytes");
            assertThat(http.send(get(management + "/actuator/info"), HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .as(process + " info")
                    .isEqualTo(200);

            String server = "http://127.0.0.1:" + stack.config().servicePorts().get(process);
            for (String endpoint : List.of("/actuator/prometheus", "/actuator/info", "/actuator/metrics")) {
                HttpResponse<String> onServerPort =
                        http.send(get(server + endpoint), HttpResponse.BodyHandlers.ofString());
                assertThat(onServerPort.statusCode())
                        .as(process + " " + endpoint + " on the service port")
                        .isIn(401, 403, 404);
                assertThat(onServerPort.body()).as(process + " " + endpoint).doesNotContain("jvm_");
            }
        }
    }

    /** A load balancer checks the gateway's public port; nothing else of the actuator answers there. */
    @Test
    @Order(1)
    void theGatewaysPublicPortAnswersOnlyActuatorHealth() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> health =
                http.send(get(stack.gatewayUrl() + "/actuator/health"), HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"UP\"").doesNotContain("components", "redis", "diskSpace");
        for (String path : List.of(
                "/actuator/prometheus",
                "/actuator/info",
                "/actuator",
                "/actuator/metrics",
                "/actuator/env",
                "/actuator/health/liveness",
                "/actuator/health/readiness",
                "/actuator/health/redis")) {
            assertThat(http.send(get(stack.gatewayUrl() + path), HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .as(path + " on the public port")
                    .isEqualTo(404);
        }
    }

    /**
     * Only the gateway's public port listens beyond loopback: the internal services, every management port and both
     * stores are bound to 127.0.0.1 (as the kernel's socket table says), and refuse a connection on this machine's
     * network address.
     */
    @Test
    @Order(1)
    void internalPortsListenOnLoopbackOnly() throws Exception {
        StackConfig c = stack.config();
        Map<String, Integer> internal = new java.util.LinkedHashMap<>();
        c.servicePorts().forEach((process, port) -> {
            if (!StackConfig.serviceOf(process).equals(LocalStack.GATEWAY)) {
                internal.put(process, port);
            }
        });
        c.managementPorts().forEach((process, port) -> internal.put(process + " management", port));
        internal.put("PostgreSQL", c.postgresPort());
        internal.put("Redis", c.redisPort());
        java.util.Optional<java.net.InetAddress> network = Listeners.nonLoopbackAddress();
        for (Map.Entry<String, Integer> port : internal.entrySet()) {
            assertThat(Listeners.boundAddresses(port.getValue()))
                    .as(port.getKey() + " listens on")
                    .isNotEmpty()
                    .allSatisfy(address -> assertThat(address.isLoopbackAddress())
                            .as(address.toString())
                            .isTrue());
            if (network.isPresent()) {
                assertThat(Listeners.refused(network.get(), port.getValue()))
                        .as(port.getKey() + " on " + network.get())
                        .isTrue();
            }
        }
        System.out.println("internal ports checked: " + internal.keySet() + "; refused on "
                + network.map(Object::toString).orElse("(no network address here)"));
    }

    @Test
    @Order(1)
    void postgresqlRefusesAConnectionWithoutThePassword() throws Exception {
        String url = stack.jdbcUrl("postgres");
        for (String wrong : List.of("", "postgres", "not-" + stack.postgresPassword())) {
            assertThatThrownBy(() ->
                            DriverManager.getConnection(url, "postgres", wrong).close())
                    .as("password '" + (wrong.isEmpty() ? "" : "...") + "'")
                    .isInstanceOf(SQLException.class);
        }
        try (var connection = DriverManager.getConnection(url, "postgres", stack.postgresPassword())) {
            assertThat(connection.isValid(2)).isTrue();
        }
        assertThat(LocalPostgres.trusts(stack.config().dataDir().resolve("postgres")))
                .as("pg_hba.conf trusts nobody, on TCP or the local socket")
                .isFalse();
    }

    @Test
    @Order(1)
    void redisRefusesEveryCommandWithoutAuth() throws Exception {
        try (var redis = new RedisWire(stack.config().redisPort())) {
            assertThat(redis.call("PING")).startsWith("-NOAUTH");
            assertThat(redis.call("GET", "anything")).startsWith("-NOAUTH");
            assertThat(redis.call("AUTH", "not-" + stack.redisPassword())).startsWith("-WRONGPASS");
            assertThat(redis.call("AUTH", stack.redisPassword())).isEqualTo("+OK");
            assertThat(redis.call("PING")).isEqualTo("+PONG");
        }
    }

    /** A plain run has no test doubles: no fault injection route, no payment simulator settling orders. */
    @Test
    @Order(1)
    void aPlainRunHasNoFaultInjectionAndNoPaymentSimulator() throws Exception {
        HttpClient admin = HttpClient.newHttpClient();
        String ops = stack.secrets().opsToken();
        for (String method : List.of("GET", "PUT", "DELETE")) {
            HttpResponse<String> faults = Launcher.send(
                    admin,
                    method,
                    stack.gatewayUrl() + "/admin/booking/faults",
                    method.equals("PUT") ? "{\"latencyMs\":100}" : null,
                    ops);
            assertThat(faults.statusCode())
                    .as(method + " /admin/booking/faults")
                    .isEqualTo(404);
        }
        assertThat(stack.environmentFor(LocalStack.BOOKING))
                .containsEntry("WAITROOM_PAYMENTS_FAKE_ENABLED", "false")
                .containsEntry("WAITROOM_BOOKING_FAULTS_ENABLED", "false");
    }

    /**
     * Every docker-compose healthcheck, run as written (CMD directly, CMD-SHELL through dash) against this stack: the
     * same services on loopback, each container port variable pointed at the stack's port. A check that cannot pass
     * here cannot pass in compose either, and {@code service_healthy} would keep the stack from ever starting.
     */
    @Test
    @Order(1)
    void everyComposeHealthcheckPassesAgainstTheRunningStack() throws Exception {
        Map<String, String> dotEnv = new java.util.HashMap<>(stack.secrets().asDotEnv());
        dotEnv.put("WAITROOM_POSTGRES_PASSWORD", "unused-by-healthchecks");
        dotEnv.put("WAITROOM_REDIS_PASSWORD", "unused-by-healthchecks");
        Map<String, ComposeHealthchecks.Healthcheck> checks =
                ComposeHealthchecks.read(stack.config().repoRoot().resolve("docker-compose.yml"), dotEnv);
        Map<String, String> notRun = new java.util.TreeMap<>();
        List<ComposeHealthchecks.Outcome> outcomes = new ArrayList<>();
        for (ComposeHealthchecks.Healthcheck check : checks.values()) {
            Integer port = stack.config().servicePorts().get(check.service());
            ComposeHealthchecks.Healthcheck local;
            if (port != null) {
                // The same ports as compose's, moved to this stack's: the service port and its management port.
                local = check.mappedTo(
                        Map.of(
                                "SERVER_PORT",
                                port.toString(),
                                "MANAGEMENT_SERVER_PORT",
                                stack.config()
                                        .managementPorts()
                                        .get(check.service())
                                        .toString()),
                        Map.of());
            } else if (check.service().equals("postgres")) {
                dev.waitroom.testsupport.TestTools.require("pg_isready");
                // In its image pg_isready finds the server on the local socket; here it is the embedded one on
                // loopback.
                local = check.mappedTo(
                        Map.of(),
                        Map.of(
                                "PGHOST",
                                "127.0.0.1",
                                "PGPORT",
                                String.valueOf(stack.config().postgresPort())));
            } else if (check.service().equals("loadtest")) {
                local = check;
            } else {
                notRun.put(
                        check.service(),
                        check.command().get(0) + " is the image's own tool against a process the "
                                + "launcher's stack does not run the same way");
                continue;
            }
            outcomes.add(local.run());
        }
        System.out.println("compose healthchecks run against the stack: " + outcomes + "; not run: " + notRun);
        assertThat(outcomes)
                .extracting(ComposeHealthchecks.Outcome::service)
                .contains("queue-service", "admission-coordinator", "booking-service", "gateway-service");
        assertThat(outcomes)
                .allSatisfy(o -> assertThat(o.healthy()).as(o.toString()).isTrue());

        HttpClient http = HttpClient.newHttpClient();
        for (String process : stack.config().servicePorts().keySet()) {
            for (String probe : List.of("readiness", "liveness")) {
                HttpResponse<String> response = http.send(
                        get(stack.managementUrl(process) + "/actuator/health/" + probe),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(process + " " + probe).isEqualTo(200);
            }
        }
    }

    @Test
    @Order(2)
    void aVisitorWaitsIsAdmittedHoldsASeatAndPays() throws Exception {
        String eventId = "e2e-" + UUID.randomUUID().toString().substring(0, 8);
        String ops = stack.secrets().opsToken();
        HttpClient admin = HttpClient.newHttpClient();
        String base = stack.gatewayUrl();
        String event = """
                {"eventId":"%s","name":"End to end","opensAt":null,"maxActiveSessions":2,"maxAdmissionsPerSecond":5,
                 "offerTtlSeconds":60,"sessionTtlSeconds":120,"sessionMaxSeconds":600,"presaleOrdering":"RANDOM",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(eventId);
        assertThat(Launcher.send(admin, "POST", base + "/admin/events", event, ops)
                        .statusCode())
                .isEqualTo(201);
        assertThat(Launcher.send(
                                        admin,
                                        "PUT",
                                        base + "/admin/events/" + eventId + "/inventory",
                                        "{\"categories\":[{\"name\":\"Floor\",\"seats\":5,\"priceCents\":5000}]}",
                                        ops)
                                .statusCode()
                        / 100)
                .isEqualTo(2);

        CookieManager cookies = new CookieManager();
        HttpClient browser = HttpClient.newBuilder().cookieHandler(cookies).build();
        HttpResponse<String> page =
                browser.send(get(base + "/events/" + eventId), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).containsIgnoringCase("<html");

        HttpResponse<String> joined =
                browser.send(post(base + "/events/" + eventId + "/queue", "{}"), HttpResponse.BodyHandlers.ofString());
        assertThat(joined.statusCode()).as(joined.body()).isIn(200, 201);
        HttpResponse<String> again =
                browser.send(post(base + "/events/" + eventId + "/queue", "{}"), HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode())
                .as("a second join returns the same entry")
                .isEqualTo(200);
        assertThat(JSON.readTree(again.body()).path("receipt").asString())
                .isEqualTo(JSON.readTree(joined.body()).path("receipt").asString());

        // Without an admission token the shop is closed, whatever the route.
        assertThat(browser.send(get(base + "/events/" + eventId + "/shop/seats"), HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(401);

        await().atMost(Duration.ofSeconds(45))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    HttpResponse<String> status = browser.send(
                            get(base + "/events/" + eventId + "/queue/status"), HttpResponse.BodyHandlers.ofString());
                    assertThat(status.statusCode()).isEqualTo(200);
                    assertThat(JSON.readTree(status.body()).path("state").asString())
                            .isEqualTo("OFFERED");
                });

        HttpResponse<String> claim = browser.send(
                post(base + "/events/" + eventId + "/admission/claim", "{}"), HttpResponse.BodyHandlers.ofString());
        assertThat(claim.statusCode()).as(claim.body()).isEqualTo(200);
        String token = JSON.readTree(claim.body()).path("token").asString();
        assertThat(token).isNotBlank();

        HttpResponse<String> seats = browser.send(
                withToken(get(base + "/events/" + eventId + "/shop/seats"), token),
                HttpResponse.BodyHandlers.ofString());
        assertThat(seats.statusCode()).as(seats.body()).isEqualTo(200);
        String seatId = firstSeatId(JSON.readTree(seats.body()));

        HttpResponse<String> hold = browser.send(
                withToken(
                        post(base + "/events/" + eventId + "/shop/holds", "{\"seatIds\":[\"" + seatId + "\"]}"), token),
                HttpResponse.BodyHandlers.ofString());
        assertThat(hold.statusCode()).as(hold.body()).isIn(200, 201);
        String holdId = firstText(JSON.readTree(hold.body()), "holdId", "id");

        HttpResponse<String> order = browser.send(
                withToken(post(base + "/events/" + eventId + "/shop/orders", "{\"holdId\":\"" + holdId + "\"}"), token),
                HttpResponse.BodyHandlers.ofString());
        assertThat(order.statusCode()).as(order.body()).isIn(200, 201, 202);
        JsonNode placed = JSON.readTree(order.body());
        String orderId = firstText(placed, "orderId", "id");

        // No simulator settles it (its delay is 2 s): the order waits for the provider.
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(6))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> !JSON.readTree(browser.send(
                                        withToken(get(base + "/events/" + eventId + "/shop/orders/" + orderId), token),
                                        HttpResponse.BodyHandlers.ofString())
                                .body())
                        .path("state")
                        .asString()
                        .equals("PAID"));
        // The provider's signed webhook, through the gateway's public route, settles it.
        HttpResponse<String> settled = HttpClient.newHttpClient()
                .send(
                        paymentWebhook(
                                base,
                                placed.path("payment").path("attemptId").asString(),
                                placed.path("amountCents").asLong()),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(settled.statusCode()).as(settled.body()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    HttpResponse<String> status = browser.send(
                            withToken(get(base + "/events/" + eventId + "/shop/orders/" + orderId), token),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
                    assertThat(JSON.readTree(status.body()).path("state").asString())
                            .isIn("PAID", "COMPLETED", "CONFIRMED");
                });

        SECRETS_SEEN.add(token);
        cookies.getCookieStore().getCookies().forEach(c -> SECRETS_SEEN.add(c.getValue()));
    }

    @Test
    @Order(4)
    void noLogLineCarriesATokenACookieOrAVisitorId() throws Exception {
        assertThat(SECRETS_SEEN)
                .as("the journey collected the values to look for")
                .hasSizeGreaterThanOrEqualTo(2);
        List<String> needles = new ArrayList<>();
        for (String secret : SECRETS_SEEN) {
            needles.add(secret);
            // The visitor id itself travels inside the cookie (v1.<kid>.<id>.<mac>): look for each long part too.
            for (String part : secret.split("\\.")) {
                if (part.length() >= 16) {
                    needles.add(part);
                }
            }
        }
        int linesRead = 0;
        for (String service : stack.config().servicePorts().keySet()) {
            List<String> lines = Files.readAllLines(stack.logOf(service));
            linesRead += lines.size();
            for (String line : lines) {
                for (String needle : needles) {
                    assertThat(line).as(service + " log").doesNotContain(needle);
                }
            }
        }
        assertThat(linesRead).isPositive();
    }

    @Test
    @Order(3)
    void internalRoutesAreNotReachableThroughTheGateway() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of("/internal/events/x/counts", "/actuator/env", "/events/x/../../internal/health")) {
            HttpResponse<String> response =
                    http.send(get(stack.gatewayUrl() + path), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isIn(400, 401, 403, 404);
        }
        HttpResponse<String> admin =
                http.send(get(stack.gatewayUrl() + "/admin/events/x"), HttpResponse.BodyHandlers.ofString());
        assertThat(admin.statusCode()).isEqualTo(401);
    }

    @Test
    @Order(99)
    void stopsCleanlyLeavingNoProcessAndNoPortBehind() {
        List<ProcessHandle> handles = new ArrayList<>();
        stack.processes().values().forEach(p -> {
            handles.add(p.toHandle());
            p.descendants().forEach(handles::add);
        });
        stack.close();
        stack = null;
        assertThat(handles)
                .allSatisfy(h -> assertThat(h.isAlive()).as("pid " + h.pid()).isFalse());
    }

    /**
     * The payment provider's callback: {@code X-Payment-Signature: sha256=<hex HMAC-SHA256 of the raw body>} keyed with
     * the webhook secret (docs/reference/contracts.md).
     */
    private static HttpRequest paymentWebhook(String base, String attemptId, long amountCents) throws Exception {
        String body = """
                {"webhookId":"wh-%s","paymentAttemptId":"%s","outcome":"SUCCEEDED","amountCents":%d,"occurredAt":"%s"}""".formatted(UUID.randomUUID(), attemptId, amountCents, java.time.Instant.now());
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(
                java.util.Base64.getDecoder().decode(stack.secrets().webhookSecret()), "HmacSHA256"));
        String signature = "sha256="
                + java.util.HexFormat.of()
                        .formatHex(mac.doFinal(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return HttpRequest.newBuilder(URI.create(base + "/webhooks/payments"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("X-Payment-Signature", signature)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static String firstSeatId(JsonNode seats) {
        JsonNode list = seats.isArray() ? seats : seats.path("seats");
        assertThat(list.isArray() && !list.isEmpty()).as("seats: " + seats).isTrue();
        return firstText(list.get(0), "seatId", "id");
    }

    private static String firstText(JsonNode node, String... names) {
        for (String name : names) {
            if (node.hasNonNull(name)) {
                return node.get(name).asString();
            }
        }
        throw new AssertionError("none of " + List.of(names) + " in " + node);
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
    }

    private static HttpRequest post(String url, String json) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }

    private static HttpRequest withToken(HttpRequest request, String token) {
        return HttpRequest.newBuilder(request, (name, value) -> true)
                .header("Authorization", "Bearer " + token)
                .build();
    }
}
