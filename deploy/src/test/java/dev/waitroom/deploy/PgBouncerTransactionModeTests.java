package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.testsupport.AllAtOnce;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
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
 * The coordinator and booking behind a real PgBouncer in {@code pool_mode = transaction} (Debian's {@code pgbouncer}),
 * in front of an embedded PostgreSQL 17 that logs every statement: the launcher's stack is given the PgBouncer
 * address as its external PostgreSQL, so Flyway migrates through it, and a visitor and then twenty at once go from
 * join to a paid order. PgBouncer has four server connections per database for the services' 26 clients, so server
 * connections change hands between transactions all the time; PostgreSQL's log then shows that nothing relied on
 * session state (server-side prepared statements, session advisory locks, {@code SET} without {@code LOCAL}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@StackTest
class PgBouncerTransactionModeTests {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final int SERVER_POOL = 4;
    private static final int CROWD = 20;
    private static final java.util.concurrent.atomic.AtomicInteger GATEWAY_RETRIES =
            new java.util.concurrent.atomic.AtomicInteger();

    private static Path dataDir;
    private static EmbeddedPostgres postgres;
    private static Process pgbouncer;
    private static int bouncerPort;
    private static LocalStack stack;

    @BeforeAll
    static void startPostgresPgBouncerAndTheStack() throws Exception {
        Path binary = pgbouncerBinary();
        dataDir = Files.createTempDirectory("waitroom-pgbouncer");
        Path logs = Files.createDirectories(dataDir.resolve("logs"));
        int[] ports = TestPorts.free(7);
        bouncerPort = ports[6];
        postgres = EmbeddedPostgres.builder()
                .setDataDirectory(Files.createDirectories(dataDir.resolve("postgres")))
                .setPort(ports[4])
                .setServerConfig("log_statement", "all")
                .setServerConfig("log_line_prefix", "%m:db=%d:")
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(
                        logs.resolve("postgres-statements.log").toFile()))
                .start();
        pgbouncer = startPgBouncer(binary, ports[4]);
        // LocalStack connects to the "postgres" database through PgBouncer (wildcard route) to create the two
        // databases.
        // its orders are paid by booking's payment simulator
        stack = LocalStack.start(TestStacks.config(
                        dataDir,
                        ports,
                        new StackConfig.ExternalStores("127.0.0.1:" + bouncerPort, "postgres", "", null, null, ""))
                .withSimulations(true));
    }

    /** Debian's binary ({@code /usr/sbin}); skipped with the reason where it is missing, a failure in CI. */
    private static Path pgbouncerBinary() {
        return dev.waitroom.testsupport.TestTools.require("pgbouncer");
    }

    private static Process startPgBouncer(Path binary, int postgresPort) throws Exception {
        Path dir = Files.createDirectories(dataDir.resolve("pgbouncer"));
        Files.writeString(dir.resolve("userlist.txt"), "\"postgres\" \"\"\n");
        // Debian 12's PgBouncer 1.18 has no max_prepared_statements (1.21+): it cannot carry named prepared
        // statements across server connections at all, which is what the driver's prepareThreshold=0 is for.
        Files.writeString(dir.resolve("pgbouncer.ini"), """
                [databases]
                * = host=127.0.0.1 port=%d

                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = %d
                unix_socket_dir =
                auth_type = trust
                auth_file = %s
                admin_users = postgres
                pool_mode = transaction
                default_pool_size = %d
                min_pool_size = 0
                reserve_pool_size = 0
                max_client_conn = 200
                server_lifetime = 3600
                ignore_startup_parameters = extra_float_digits
                """.formatted(
                        postgresPort, bouncerPort, dir.resolve("userlist.txt"), SERVER_POOL));
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            // PgBouncer refuses to run as root; it drops to nobody, who must read its two files.
            for (Path p : List.of(dataDir, dir)) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            for (String f : List.of("userlist.txt", "pgbouncer.ini")) {
                Files.setPosixFilePermissions(dir.resolve(f), PosixFilePermissions.fromString("rw-r--r--"));
            }
            command.addAll(List.of("-u", "nobody"));
        }
        command.add(dir.resolve("pgbouncer.ini").toString());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dataDir.resolve("logs").resolve("pgbouncer.log").toFile()))
                .start();
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new AssertionError("pgbouncer exited: "
                                + LocalStack.tail(dataDir.resolve("logs").resolve("pgbouncer.log"), 20));
                    }
                    try (Connection c = DriverManager.getConnection(
                            "jdbc:postgresql://127.0.0.1:" + bouncerPort + "/postgres?prepareThreshold=0",
                            "postgres",
                            "")) {
                        return c.isValid(2);
                    }
                });
        return process;
    }

    @AfterAll
    static void stopEverything() throws IOException {
        if (stack != null) {
            stack.close();
        }
        if (pgbouncer != null) {
            pgbouncer.destroy();
            try {
                if (!pgbouncer.waitFor(10, TimeUnit.SECONDS)) {
                    pgbouncer.destroyForcibly();
                }
            } catch (InterruptedException e) {
                pgbouncer.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (postgres != null) {
            postgres.close();
        }
        // The logs stay with the build output for a reader of a failure; the stores do not.
        TestStacks.keepLogsAndDelete(dataDir, "pgbouncer-logs");
    }

    @Test
    @Order(1)
    void theServicesMigrateAndRunThroughPgBouncerInTransactionMode() throws Exception {
        assertThat(stack.environmentFor(LocalStack.COORDINATOR))
                .containsEntry(
                        "SPRING_DATASOURCE_URL",
                        "jdbc:postgresql://127.0.0.1:" + bouncerPort + "/coordinator?prepareThreshold=0");
        assertThat(stack.environmentFor("booking-service"))
                .containsEntry(
                        "SPRING_DATASOURCE_URL",
                        "jdbc:postgresql://127.0.0.1:" + bouncerPort + "/booking?prepareThreshold=0");
        for (String database : List.of("coordinator", "booking")) {
            // Flyway ran at start through PgBouncer, the only address the services were given.
            assertThat(directLong(database, "select count(*) from flyway_schema_history where success"))
                    .as(database + " migrations")
                    .isGreaterThanOrEqualTo(3);
            assertThat(directLong(database, "select count(*) from flyway_schema_history where not success"))
                    .isZero();
        }
        assertServerConnectionsShared();
    }

    /**
     * Each service's Hikari pool keeps all its connections open to PgBouncer (16 and 10), while PostgreSQL serves
     * each database with at most PgBouncer's four: clients share server connections between transactions.
     */
    private static void assertServerConnectionsShared() throws Exception {
        Map<String, String> owners = Map.of("coordinator", LocalStack.COORDINATOR, "booking", "booking-service");
        for (Map.Entry<String, String> owner : owners.entrySet()) {
            double clients = hikariConnections(owner.getValue());
            long servers = directLong(
                    "postgres", "select count(*) from pg_stat_activity where datname = '" + owner.getKey() + "'");
            assertThat(servers)
                    .as(owner.getKey() + " server connections")
                    .isPositive()
                    .isLessThanOrEqualTo(SERVER_POOL);
            assertThat(clients).as(owner.getValue() + " client connections").isGreaterThan(SERVER_POOL);
        }
    }

    private static double hikariConnections(String service) {
        URI metrics = URI.create(stack.managementUrl(service) + "/actuator/prometheus");
        return await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> {
                            String body = HttpClient.newHttpClient()
                                    .send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString())
                                    .body();
                            return body.lines()
                                    .filter(l -> l.startsWith("hikaricp_connections{"))
                                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                                    .sum();
                        },
                        open -> open > SERVER_POOL);
    }

    @Test
    @Order(2)
    void aVisitorJoinsIsOfferedClaimsHoldsASeatAndPays() throws Exception {
        String eventId = createSale("pgb-" + UUID.randomUUID().toString().substring(0, 8), 2, 5);
        Visitor visitor = new Visitor();
        visitor.join(eventId);
        visitor.awaitOffer(eventId);
        visitor.claim(eventId);
        String seat = visitor.seatIds(eventId).get(0);
        String order = visitor.order(eventId, visitor.hold(eventId, seat));
        visitor.awaitPaid(eventId, order);
        DurableState durable = new DurableState(stack);
        assertThat(durable.paidOrders(eventId)).isEqualTo(1);
        assertThat(durable.invariantViolations(eventId, 2)).isEmpty();
    }

    @Test
    @Order(3)
    void twentyVisitorsClaimHoldAndPayAtOnceAcrossTheSharedServerConnections() throws Exception {
        String eventId = createSale("pgb-crowd-" + UUID.randomUUID().toString().substring(0, 8), CROWD, 2 * CROWD);
        List<Visitor> visitors = new ArrayList<>();
        for (int i = 0; i < CROWD; i++) {
            Visitor v = new Visitor();
            v.join(eventId);
            visitors.add(v);
        }
        for (Visitor v : visitors) {
            v.awaitOffer(eventId);
        }
        // Every claim starts at once: 20 transactions on the coordinator's 16 clients and 4 server connections.
        List<String> tokens = all(visitors, v -> v.claim(eventId));
        assertThat(new HashSet<>(tokens))
                .as("one distinct admission token per visitor")
                .hasSize(CROWD);
        // Each shopper looks at the seat map first, then all hold a different seat and order at once.
        List<String> seats = List.of(
                all(visitors, v -> String.join(",", v.seatIds(eventId))).get(0).split(","));
        List<Callable<String>> buys = new ArrayList<>();
        for (int i = 0; i < CROWD; i++) {
            Visitor v = visitors.get(i);
            String seat = seats.get(i);
            buys.add(() -> v.order(eventId, v.hold(eventId, seat)));
        }
        List<String> orders = AllAtOnce.call(buys);
        AllAtOnce.call(visitors.stream()
                .<Callable<String>>map(v -> () -> {
                    v.awaitPaid(eventId, orders.get(visitors.indexOf(v)));
                    return "paid";
                })
                .toList());
        DurableState durable = new DurableState(stack);
        assertThat(durable.paidOrders(eventId)).isEqualTo(CROWD);
        assertThat(durable.seatsSoldTwice(eventId)).isZero();
        assertThat(durable.invariantViolations(eventId, CROWD)).isEmpty();
        assertThat(durable.liveGrants(eventId)).isLessThanOrEqualTo(CROWD);
        assertServerConnectionsShared();
        System.out.println("behind PgBouncer: " + CROWD + " concurrent claims, holds and paid orders; shop requests "
                + "retried after the gateway's own 503 admission-unavailable (its Redis registry lookup over budget): "
                + GATEWAY_RETRIES.get());
        for (String service : List.of(LocalStack.COORDINATOR, "booking-service")) {
            assertThat(Files.readAllLines(stack.logOf(service)))
                    .as(service + " log: no database error, no refused check")
                    .noneMatch(
                            l -> l.matches(".*(SQLException|PSQLException|DataAccessException|CannotGetJdbcConnection"
                                    + "|admission tokens cannot be verified).*"));
        }
    }

    /**
     * PostgreSQL logged every statement the pooled server connections ran for the two services: none leaves state on
     * the server connection for the next transaction's client. Three kinds of session-level setting are expected and
     * harmless, and checked by value: PgBouncer's own synchronisation of the parameters it tracks per client
     * ({@code SET DateStyle}, {@code TimeZone}, {@code application_name}, ...), and Flyway's {@code SET ROLE} back to
     * the login role and its {@code search_path} changes between {@code "$user", public} and
     * {@code "public", "$user", public}, which resolve every name of these schemas to the same table.
     */
    @Test
    @Order(4)
    void noStatementLeftSessionStateOnAPooledServerConnection() throws IOException {
        List<String> lines = Files.readAllLines(dataDir.resolve("logs").resolve("postgres-statements.log")).stream()
                .filter(line -> line.contains(":db=coordinator:") || line.contains(":db=booking:"))
                .toList();
        assertThat(lines)
                .as("PostgreSQL logged the services' statements, Flyway's lock and booking's lock among them")
                .anyMatch(l -> l.contains("execute <unnamed>:"))
                .anyMatch(l -> l.contains("pg_try_advisory_xact_lock("))
                .anyMatch(l -> l.contains("pg_advisory_xact_lock(hashtextextended("));
        List<String> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String next = i + 1 < lines.size() ? lines.get(i + 1) : "";
            String problem = sessionStateIn(lines.get(i), next);
            if (problem != null && found.size() < 20) {
                found.add(problem + ": " + lines.get(i) + (problem.startsWith("set_config") ? " / " + next : ""));
            }
        }
        assertThat(found)
                .as("statements that keep state on a pooled server connection")
                .isEmpty();
    }

    private static final Pattern LOGGED = Pattern.compile("LOG:  (statement|execute ([^:]+)): (.*)");
    private static final Pattern SET = Pattern.compile("(?is)set\\s+(?:session\\s+)?(\\w+)(.*)");
    private static final Set<String> TRACKED_BY_PGBOUNCER =
            Set.of("datestyle", "timezone", "application_name", "client_encoding", "standard_conforming_strings");
    private static final Pattern SESSION_LOCK = Pattern.compile("(?i)pg_(try_)?advisory_lock(_shared)?\\s*\\(");
    private static final Pattern SESSION_SET_CONFIG =
            Pattern.compile("(?i)set_config\\s*\\(\\s*'([^']+)'[^)]*,\\s*false\\s*\\)");
    private static final Pattern FLYWAY_SEARCH_PATH =
            Pattern.compile("Parameters: \\$1 = '(\"public\", ?)?\"\\$user\", public'");

    /** What in one logged statement would outlive its transaction on the server connection, or null. */
    private static String sessionStateIn(String line, String next) {
        if (line.matches(".*prepared statement .* (does not exist|already exists).*")) {
            return "a named prepared statement missing on, or left on, a server connection";
        }
        java.util.regex.Matcher logged = LOGGED.matcher(line);
        if (!logged.find()) {
            return null;
        }
        boolean simpleProtocol = logged.group(2) == null;
        // "execute <unnamed>/C_1": a portal of the unnamed statement, closed with its transaction.
        if (!simpleProtocol && !logged.group(2).split("/")[0].equals("<unnamed>")) {
            return "a named (server-side) prepared statement";
        }
        for (String part : logged.group(3).split(";")) {
            String sql = part.strip();
            if (sql.matches("(?is)(prepare|deallocate|listen)\\s.*")
                    || sql.matches("(?is)create\\s+temp(orary)?\\s+table.*")) {
                return "PREPARE, LISTEN or a temporary table";
            }
            if (SESSION_LOCK.matcher(sql).find()) {
                return "a session-level advisory lock";
            }
            java.util.regex.Matcher set = SET.matcher(sql);
            if (set.matches()) {
                String name = set.group(1).toLowerCase(java.util.Locale.ROOT);
                boolean scoped = name.equals("local") || name.equals("transaction") || name.equals("constraints");
                boolean pgbouncer = simpleProtocol && TRACKED_BY_PGBOUNCER.contains(name);
                boolean flywayRole = name.equals("role") && set.group(2).strip().equals("'postgres'");
                if (!scoped && !pgbouncer && !flywayRole) {
                    return "SET without LOCAL";
                }
            }
            java.util.regex.Matcher setConfig = SESSION_SET_CONFIG.matcher(sql);
            if (setConfig.find()
                    && !(setConfig.group(1).equals("search_path")
                            && FLYWAY_SEARCH_PATH.matcher(next).find())) {
                return "set_config(..., false)";
            }
        }
        return null;
    }

    /**
     * The control: the same PgBouncer breaks a client that does use server-side prepared statements, so the test
     * above would have caught the services doing so; with {@code prepareThreshold=0} the same interleaving works.
     */
    @Test
    @Order(5)
    void thePoolerBreaksServerSidePreparedStatementsThatPrepareThresholdZeroAvoids() throws Exception {
        // A's named statement is missing on the server connection it gets next, or B meets A's on the one it took.
        assertThatThrownBy(() -> interleave("prepareThreshold=1"))
                .isInstanceOf(SQLException.class)
                .hasMessageMatching("(?s).*prepared statement \"S_\\d+\" (does not exist|already exists).*");
        interleave("prepareThreshold=0");
    }

    /**
     * Client A runs a statement in one transaction, client B then takes that server connection (LIFO reuse), and A
     * runs the statement again in its next transaction, now on another server connection.
     */
    private static void interleave(String parameters) throws SQLException {
        String url = "jdbc:postgresql://127.0.0.1:" + bouncerPort + "/postgres?" + parameters;
        try (Connection a = DriverManager.getConnection(url, "postgres", "");
                Connection b = DriverManager.getConnection(url, "postgres", "")) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            int firstServer = backendPid(a);
            try (var s = a.prepareStatement("select ?::int + 1")) {
                s.setInt(1, 1);
                s.executeQuery().close();
            }
            a.commit();
            assertThat(backendPid(b))
                    .as("B takes the server connection A just released")
                    .isEqualTo(firstServer);
            try (var s = a.prepareStatement("select ?::int + 1")) {
                s.setInt(1, 2);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(3);
                }
            }
            assertThat(backendPid(a))
                    .as("A now runs on another server connection")
                    .isNotEqualTo(firstServer);
            a.commit();
            b.commit();
        }
    }

    private static int backendPid(Connection c) throws SQLException {
        try (var s = c.createStatement();
                ResultSet rs = s.executeQuery("select pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static String createSale(String eventId, int ceiling, int seats) throws Exception {
        String event = """
                {"eventId":"%s","name":"Behind PgBouncer","opensAt":null,"maxActiveSessions":%d,"maxAdmissionsPerSecond":50,
                 "offerTtlSeconds":60,"sessionTtlSeconds":120,"sessionMaxSeconds":600,"presaleOrdering":"RANDOM",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(eventId, ceiling);
        HttpClient admin = HttpClient.newHttpClient();
        HttpResponse<String> created = Launcher.send(
                admin,
                "POST",
                stack.gatewayUrl() + "/admin/events",
                event,
                stack.secrets().opsToken());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> inventory = Launcher.send(
                admin,
                "PUT",
                stack.gatewayUrl() + "/admin/events/" + eventId + "/inventory",
                "{\"categories\":[{\"name\":\"Floor\",\"seats\":" + seats + ",\"priceCents\":5000}]}",
                stack.secrets().opsToken());
        assertThat(inventory.statusCode() / 100).as(inventory.body()).isEqualTo(2);
        return eventId;
    }

    /** A browser: its own cookies, and the admission token once it has claimed. */
    private static final class Visitor {
        private final HttpClient http = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .connectTimeout(Duration.ofSeconds(3))
                .build();
        private volatile String token;

        void join(String eventId) throws Exception {
            HttpResponse<String> joined = send(post("/events/" + eventId + "/queue", "{}"));
            assertThat(joined.statusCode()).as(joined.body()).isIn(200, 201);
        }

        void awaitOffer(String eventId) {
            await().atMost(Duration.ofSeconds(45))
                    .pollInterval(Duration.ofMillis(300))
                    .untilAsserted(() -> {
                        HttpResponse<String> status = send(get("/events/" + eventId + "/queue/status"));
                        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
                        assertThat(JSON.readTree(status.body()).path("state").asString())
                                .isEqualTo("OFFERED");
                    });
        }

        String claim(String eventId) throws Exception {
            HttpResponse<String> claim = send(post("/events/" + eventId + "/admission/claim", "{}"));
            assertThat(claim.statusCode()).as(claim.body()).isEqualTo(200);
            token = JSON.readTree(claim.body()).path("token").asString();
            assertThat(token).isNotBlank();
            return token;
        }

        List<String> seatIds(String eventId) throws Exception {
            HttpResponse<String> seats = send(get("/events/" + eventId + "/shop/seats"));
            assertThat(seats.statusCode()).as(seats.body()).isEqualTo(200);
            JsonNode body = JSON.readTree(seats.body());
            JsonNode list = body.isArray() ? body : body.path("seats");
            List<String> ids = new ArrayList<>();
            list.forEach(seat -> ids.add(text(seat, "seatId", "id")));
            assertThat(ids).as(seats.body()).isNotEmpty();
            return ids;
        }

        String hold(String eventId, String seatId) throws Exception {
            HttpResponse<String> hold =
                    send(post("/events/" + eventId + "/shop/holds", "{\"seatIds\":[\"" + seatId + "\"]}"));
            assertThat(hold.statusCode()).as(hold.body()).isIn(200, 201);
            return text(JSON.readTree(hold.body()), "holdId", "id");
        }

        String order(String eventId, String holdId) throws Exception {
            HttpResponse<String> order =
                    send(post("/events/" + eventId + "/shop/orders", "{\"holdId\":\"" + holdId + "\"}"));
            assertThat(order.statusCode()).as(order.body()).isIn(200, 201, 202);
            return text(JSON.readTree(order.body()), "orderId", "id");
        }

        void awaitPaid(String eventId, String orderId) {
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(300))
                    .untilAsserted(() -> {
                        HttpResponse<String> status = send(get("/events/" + eventId + "/shop/orders/" + orderId));
                        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
                        assertThat(JSON.readTree(status.body()).path("state").asString())
                                .isEqualTo("PAID");
                    });
        }

        /**
         * A shopper retries what the gateway answers with 503 admission-unavailable ("please retry shortly"): its
         * Redis registry lookup has a 500 ms budget that a burst on two shared cores can exceed. Booking's own
         * refusals would be logged, and the crowd test fails on such a line.
         */
        private HttpResponse<String> send(HttpRequest.Builder request) {
            if (token != null) {
                request.header("Authorization", "Bearer " + token);
            }
            HttpRequest built = request.timeout(Duration.ofSeconds(15)).build();
            java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
            HttpResponse<String> response = await().atMost(Duration.ofSeconds(15))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(300))
                    .until(
                            () -> {
                                attempts.incrementAndGet();
                                return http.send(built, HttpResponse.BodyHandlers.ofString());
                            },
                            r -> r.statusCode() != 503 || !r.body().contains("/admission-unavailable"));
            GATEWAY_RETRIES.addAndGet(attempts.get() - 1);
            return response;
        }

        private static HttpRequest.Builder get(String path) {
            return HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path)).GET();
        }

        private static HttpRequest.Builder post(String path, String json) {
            return HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json));
        }
    }

    private interface VisitorStep {
        String apply(Visitor visitor) throws Exception;
    }

    /** The step of every visitor at once (released together), their results in order; the first failure fails. */
    private static List<String> all(List<Visitor> visitors, VisitorStep step) throws Exception {
        return AllAtOnce.call(visitors.stream()
                .<Callable<String>>map(v -> () -> step.apply(v))
                .toList());
    }

    private static String text(JsonNode node, String... names) {
        for (String name : names) {
            if (node.hasNonNull(name)) {
                return node.get(name).asString();
            }
        }
        throw new AssertionError("none of " + List.of(names) + " in " + node);
    }

    /** Straight to PostgreSQL, around PgBouncer: what the services did, read from the store itself. */
    private static long directLong(String database, String sql) throws SQLException {
        try (Connection c = postgres.getDatabase("postgres", database).getConnection();
                var s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
