package dev.waitroom.deploy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

/**
 * The whole waiting room on one machine: PostgreSQL and Redis (embedded unless external ones are given), then the
 * four services as separate processes, each checked healthy before the stack counts as started.
 */
final class LocalStack implements AutoCloseable {

    /** Start order: stores' clients first, the edge last. */
    static final List<String> SERVICES =
            List.of("queue-service", "admission-coordinator", "booking-service", "gateway-service");

    static final String GATEWAY = "gateway-service";
    static final String COORDINATOR = "admission-coordinator";
    static final String BOOKING = "booking-service";
    static final String LOOPBACK = "127.0.0.1";
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(180);

    private final StackConfig config;
    private final Secrets secrets;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    /** How each process was started: whether it maps its build's class-data-sharing archive or records one. */
    private final Map<String, ServiceJvms.Launch> launches = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * How long a stopped service may take to exit before it is killed: a first run of a build writes its
     * class-data-sharing recording on its way out (ServiceJvms), which takes seconds while the others do the same.
     */
    private static final java.time.Duration STOP_GRACE = java.time.Duration.ofSeconds(40);

    private final ServiceJvms jvms = ServiceJvms.fromEnvironment(javaExecutable());
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<RoundRobinProxy> proxies = new ArrayList<>();
    private EmbeddedPostgres postgres;
    private RedisServer redis;
    /** The Redis of each region after the first (the first region's is {@link #redis}). */
    private final Map<String, RedisServer> regionalRedis = new LinkedHashMap<>();

    private LocalStack(StackConfig config, Secrets secrets) {
        this.config = config;
        this.secrets = secrets;
    }

    static LocalStack start(StackConfig config) throws IOException, InterruptedException {
        LocalStack stack = prepare(config);
        try {
            stack.checkPortsFree();
            stack.startStores();
            stack.startProxies();
            stack.prepareJvms();
            for (String service : SERVICES) {
                for (String instance : config.processesOf(service)) {
                    stack.startService(instance);
                }
            }
            for (String service : stack.processes.keySet()) {
                stack.awaitHealthy(service);
            }
            return stack;
        } catch (IOException | InterruptedException | RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    /** The stack with its directories and secrets in place, nothing started yet. */
    static LocalStack prepare(StackConfig config) throws IOException {
        OwnerOnly.directory(config.dataDir());
        OwnerOnly.directory(config.logs());
        return new LocalStack(config, Secrets.loadOrGenerate(config.dataDir()));
    }

    private void checkPortsFree() {
        Map<String, Integer> wanted = new LinkedHashMap<>(config.servicePorts());
        config.managementPorts().forEach((process, port) -> wanted.put(process + " management", port));
        config.proxyPorts().forEach((service, port) -> wanted.put(service + " proxy", port));
        if (config.external().postgresHostPort() == null) {
            wanted.put("embedded PostgreSQL", config.postgresPort());
        }
        if (config.external().redisHost() == null) {
            wanted.put("embedded Redis", config.redisPort());
        }
        for (StackConfig.Region region : otherRegions()) {
            wanted.put("embedded Redis of region " + region.name(), region.redisPort());
        }
        List<String> busy = new ArrayList<>();
        wanted.forEach((what, port) -> {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress("127.0.0.1", port));
            } catch (IOException e) {
                busy.add(what + " needs port " + port);
            }
        });
        if (!busy.isEmpty()) {
            throw new StackException("ports already in use: " + String.join("; ", busy)
                    + ". Stop what holds them (is another Waitroom running? try `./waitroom stop`).");
        }
    }

    private void startStores() throws IOException {
        if (config.external().postgresHostPort() == null) {
            startPostgres();
        }
        for (String database : List.of("coordinator", "booking")) {
            createDatabaseIfMissing(database);
        }
        if (config.external().redisHost() == null) {
            Path redisDir = OwnerOnly.directory(config.dataDir().resolve("redis"));
            RedisBinary binary = RedisBinary.choose(System.getenv());
            if (binary.bundled()) {
                System.err.println(RedisBinary.BUNDLED_WARNING);
            }
            String maxMemory;
            try {
                maxMemory = StackConfig.redisMaxMemory(System.getenv());
            } catch (IllegalArgumentException e) {
                throw new StackException(e.getMessage());
            }
            try {
                redis = redisServer(binary, config.redisPort(), secrets.redisPassword(), maxMemory, redisDir)
                        .build();
                redis.start();
            } catch (IOException | RuntimeException e) {
                throw new StackException(
                        "embedded Redis did not start on port " + config.redisPort() + ": " + e.getMessage());
            }
            for (StackConfig.Region region : otherRegions()) {
                Path dir = OwnerOnly.directory(config.dataDir().resolve("redis-" + region.name()));
                try {
                    RedisServer server = redisServer(
                                    binary, region.redisPort(), secrets.redisPassword(), maxMemory, dir)
                            .build();
                    server.start();
                    regionalRedis.put(region.name(), server);
                } catch (IOException | RuntimeException e) {
                    throw new StackException("embedded Redis of region " + region.name() + " did not start on port "
                            + region.redisPort() + ": " + e.getMessage());
                }
            }
        }
    }

    /** The regions after the first, each with its own Redis, gateway, queue-service and coordinator. */
    private List<StackConfig.Region> otherRegions() {
        List<StackConfig.Region> regions = config.regions();
        return regions.isEmpty() ? List.of() : regions.subList(1, regions.size());
    }

    /**
     * The embedded Redis as the launcher starts it: the installed {@code redis-server} or the bundled one
     * ({@link RedisBinary}), with {@code umask 077}, in {@code dir}. The settings go to a configuration file of the
     * library's (a temporary file only its owner reads, written by {@link RedisServerBuilder#buildCommandArgs()}), not
     * onto the command line.
     */
    static RedisServerBuilder redisServer(RedisBinary binary, int port, String password, String maxMemory, Path dir) {
        return RedisServer.newRedisServer()
                .executableProvider(binary.ownerOnly(dir))
                .bind("127.0.0.1")
                .port(port)
                .setting("requirepass " + password)
                .setting("appendonly yes")
                .setting("appendfsync everysec")
                // a full Redis refuses writes (the queue answers 503 queue-store-full) rather than evict a waiting
                // visitor's place
                .setting("maxmemory " + maxMemory)
                .setting("maxmemory-policy noeviction")
                .setting("dir " + dir.toAbsolutePath())
                .onShutdownForceStop(true);
    }

    private void startProxies() throws IOException {
        for (Map.Entry<String, Integer> proxy : config.proxyPorts().entrySet()) {
            proxies.add(RoundRobinProxy.start(
                    proxy.getKey(), proxy.getValue(), config.instancePorts().get(proxy.getKey())));
        }
    }

    private void createDatabaseIfMissing(String database) {
        try (var connection = DriverManager.getConnection(jdbcUrl("postgres"), postgresUser(), postgresPassword());
                var statement = connection.createStatement()) {
            try (var rs = statement.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            statement.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new StackException(
                    "cannot create database " + database + " on " + jdbcUrl("postgres") + ": " + e.getMessage());
        }
    }

    /**
     * The embedded PostgreSQL is reached directly. An external address may be a PgBouncer in transaction mode, so
     * its URLs carry {@code prepareThreshold=0} (no server-side prepared statements), as compose and Kubernetes do.
     */
    String jdbcUrl(String database) {
        if (config.external().postgresHostPort() == null) {
            return "jdbc:postgresql://127.0.0.1:" + config.postgresPort() + "/" + database;
        }
        return "jdbc:postgresql://" + config.external().postgresHostPort() + "/" + database + "?prepareThreshold=0";
    }

    /** The PostgreSQL user the services log in as: the embedded server's superuser, or the external one's. */
    String postgresUser() {
        return config.external().postgresHostPort() == null
                ? LocalPostgres.SUPERUSER
                : config.external().postgresUser();
    }

    /** The embedded server's generated password, or the external one's. */
    String postgresPassword() {
        return config.external().postgresHostPort() == null
                ? secrets.postgresPassword()
                : config.external().postgresPassword();
    }

    private String redisHost() {
        return config.external().redisHost() != null ? config.external().redisHost() : "127.0.0.1";
    }

    int redisPort() {
        return config.external().redisPort() != null ? config.external().redisPort() : config.redisPort();
    }

    /** The embedded Redis's generated {@code requirepass}, or the external one's password (empty: none). */
    String redisPassword() {
        return config.external().redisHost() == null
                ? secrets.redisPassword()
                : config.external().redisPassword();
    }

    /** The launcher's environment variable naming the address the gateway listens on; loopback when unset. */
    static final String GATEWAY_ADDRESS_VARIABLE = "WAITROOM_GATEWAY_ADDRESS";

    private static String gatewayAddress() {
        String address = System.getenv(GATEWAY_ADDRESS_VARIABLE);
        return address == null || address.isBlank() ? LOOPBACK : address.strip();
    }

    /** The identity provider's settings (docs/integration/accounts.md), passed from the launcher's environment to every service. */
    private static final String ACCOUNTS_PREFIX = "WAITROOM_ACCOUNTS_";

    /**
     * A process's environment, as a real deployment would give it: only the secrets of its service's row of
     * {@link ServiceSecrets} (its own credential, its callers' hashes, the keys it uses), where the others are, and
     * only the store credentials the service uses. Every process listens on loopback only, its management port
     * (health, metrics, info) too; the gateway's own port listens on {@value #GATEWAY_ADDRESS_VARIABLE} when that is set
     * (e.g. {@code 0.0.0.0}, to serve other hosts): the gateway trusts forwarding headers from private ranges, so on a
     * LAN any host could choose its own client address (docs/design/abuse/client-limits.md).
     */
    Map<String, String> environmentFor(String process) {
        String service = StackConfig.serviceOf(process);
        Map<String, String> env = new LinkedHashMap<>(secrets.environmentOf(ServiceSecrets.Service.ofModule(service)));
        env.put("SERVER_PORT", String.valueOf(config.servicePorts().get(process)));
        env.put("SERVER_ADDRESS", service.equals(GATEWAY) ? gatewayAddress() : LOOPBACK);
        env.put(
                "MANAGEMENT_SERVER_PORT",
                String.valueOf(config.managementPorts().get(process)));
        env.put("MANAGEMENT_SERVER_ADDRESS", LOOPBACK);
        // The service ports: with replicas, each is the round-robin proxy, so every caller spreads over the instances.
        // With regions, a region's processes call their own region's queue-service and coordinator and use their own
        // Redis; booking (shared) reports its health to the first region's coordinator (docs/operating/regions.md).
        var region = config.regionOf(process);
        env.put(
                "WAITROOM_SERVICES_QUEUEURL",
                "http://127.0.0.1:" + region.map(StackConfig.Region::queuePort).orElse(config.queuePort()));
        env.put(
                "WAITROOM_SERVICES_COORDINATORURL",
                "http://127.0.0.1:"
                        + region.map(StackConfig.Region::coordinatorPort).orElse(config.coordinatorPort()));
        env.put("WAITROOM_SERVICES_BOOKINGURL", "http://127.0.0.1:" + config.bookingPort());
        if (service.equals(COORDINATOR)) {
            region.ifPresent(r -> env.put("WAITROOM_REGION_NAME", r.name()));
            // no event's origin may name one of the stack's own ports but the bundled shop's
            // (docs/integration/gateway-in-front.md)
            java.util.Set<Integer> reserved =
                    new java.util.TreeSet<>(config.managementPorts().values());
            config.servicePorts().forEach((p, port) -> {
                if (!StackConfig.serviceOf(p).equals(BOOKING)) {
                    reserved.add(port);
                }
            });
            env.put(
                    "WAITROOM_ROUTES_RESERVEDPORTS",
                    String.join(",", reserved.stream().map(String::valueOf).toList()));
        }
        if (!service.equals(BOOKING)) {
            env.put("SPRING_DATA_REDIS_HOST", redisHost());
            env.put(
                    "SPRING_DATA_REDIS_PORT",
                    String.valueOf(region.map(StackConfig.Region::redisPort).orElse(redisPort())));
            if (!redisPassword().isEmpty()) {
                env.put("SPRING_DATA_REDIS_PASSWORD", redisPassword());
            }
        }
        if (service.equals(COORDINATOR) || service.equals(BOOKING)) {
            env.put("SPRING_DATASOURCE_URL", jdbcUrl(service.equals(COORDINATOR) ? "coordinator" : "booking"));
            env.put("SPRING_DATASOURCE_USERNAME", postgresUser());
            env.put("SPRING_DATASOURCE_PASSWORD", postgresPassword());
        }
        if (service.equals(BOOKING)) {
            // Booking verifies the gateway's Waitroom-Admission header as any shop origin would: with the keys the
            // gateway publishes (read at the first shop request, when the gateway is up;
            // docs/design/security/booking.md).
            env.put("WAITROOM_VERIFIER_JWKSURL", gatewayUrl() + "/.well-known/waitroom-admission-keys");
            // Off unless asked for (--demo, --simulations, the fault suite): booking's own default is off too.
            env.put("WAITROOM_PAYMENTS_FAKE_ENABLED", String.valueOf(config.simulations()));
            env.put("WAITROOM_BOOKING_FAULTS_ENABLED", String.valueOf(config.simulations()));
            if (config.simulations()) {
                // The simulator calls back as a real provider would: through the gateway's public webhook route.
                env.put("WAITROOM_PAYMENTS_FAKE_WEBHOOKURL", gatewayUrl() + "/webhooks/payments");
            }
        }
        // Local http: cookies cannot be Secure or the browser drops them.
        env.put("WAITROOM_GATEWAY_SECURECOOKIES", "false");
        // An identity provider set in the launcher's environment (docs/integration/accounts.md) reaches every service
        // alike: the
        // gateway verifies its tokens, the queue-service names the sign-in URL, the coordinator allows ACCOUNT scope.
        // The pseudonym key is one of the generated secrets above, unless the environment sets one of its own; like
        // every secret it reaches only the services whose row holds it (the gateway).
        var row = ServiceSecrets.heldBy(process);
        System.getenv().forEach((name, value) -> {
            if (name.startsWith(ACCOUNTS_PREFIX)
                    && (!ServiceSecrets.SECRET_NAME.matcher(name).matches()
                            || row.stream().anyMatch(s -> s.variable().equals(name)))) {
                env.put(name, value);
            }
        });
        return env;
    }

    /**
     * Extracts each service's build at once, side by side ({@link ServiceJvms#prepare}; a no-op for a build extracted
     * before): one after the other, a new build's four extractions held the last service's start back by about 25 s
     * on a loaded machine.
     */
    private void prepareJvms() throws IOException, InterruptedException {
        var pool = java.util.concurrent.Executors.newFixedThreadPool(SERVICES.size());
        try {
            List<java.util.concurrent.Future<ServiceJvms.Launch>> prepared = new ArrayList<>();
            for (String service : SERVICES) {
                Path jar = serviceJar(service);
                prepared.add(pool.submit(() -> jvms.prepare(service, jar)));
            }
            for (var launch : prepared) {
                try {
                    launch.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw new IOException(e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void startService(String service) throws IOException {
        Path jar = serviceJar(StackConfig.serviceOf(service));
        ServiceJvms.Launch launch;
        try {
            launch = jvms.prepare(StackConfig.serviceOf(service), jar);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted while preparing " + service);
        }
        Path log = OwnerOnly.file(config.logs().resolve(service + ".log"));
        List<String> command = new ArrayList<>(launch.command());
        // names the stack on the command line, so status and stop know the process as this data directory's
        command.add(1, StackProcesses.stackMarker(config.dataDir()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(config.dataDir().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environmentFor(service));
        Process process = builder.start();
        process.onExit().thenAccept(p -> launch.exited(p.exitValue()));
        processes.put(service, process);
        launches.put(service, launch);
    }

    private Path serviceJar(String service) throws IOException {
        Path target = config.repoRoot().resolve(service).resolve("target");
        if (Files.isDirectory(target)) {
            try (Stream<Path> files = Files.list(target)) {
                var jar = files.filter(p -> p.getFileName().toString().matches(service + "-[^-]+.*\\.jar"))
                        .filter(p -> !p.getFileName().toString().endsWith("-plain.jar")
                                && !p.getFileName().toString().endsWith("-sources.jar"))
                        .findFirst();
                if (jar.isPresent()) {
                    return jar.get();
                }
            }
        }
        throw new StackException(service + " is not built (no jar in " + target + "); run ./mvnw -DskipTests package");
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Where a process's management endpoints answer: {@code http://127.0.0.1:<management port>}. */
    String managementUrl(String process) {
        return "http://127.0.0.1:" + config.managementPorts().get(process);
    }

    void awaitHealthy(String service) throws InterruptedException {
        URI health = URI.create(managementUrl(service) + "/actuator/health");
        Duration bound = healthBound();
        Instant deadline = Instant.now().plus(bound);
        Process process = processes.get(service);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new StackException(service + " exited with code " + process.exitValue() + "; last lines of "
                        + logOf(service) + ":\n" + tail(logOf(service), 25));
            }
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(health)
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new StackException(
                service + " was not healthy within " + bound.toSeconds() + " s; see " + logOf(service));
    }

    /**
     * How long a service may take to be healthy: {@link #HEALTH_TIMEOUT} for the four services of one region, 15 s
     * more for each JVM beyond them, which all start (and warm up) at once on the same cores: 13 JVMs of two regions
     * of two replicas took 150-175 s to start at a load average of 40 (docs/operating/chaos.md).
     */
    private Duration healthBound() {
        return HEALTH_TIMEOUT.plusSeconds(15L * Math.max(0, processes.size() - 4));
    }

    Path logOf(String service) {
        return config.logs().resolve(service + ".log");
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Sends a POSIX signal (KILL, STOP, CONT, TERM) to a service process, as an operator or a crash would. */
    void signal(String service, String signal) throws IOException, InterruptedException {
        Process p = processes.get(service);
        if (p == null) {
            throw new IllegalArgumentException("no process " + service);
        }
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid()))
                .inheritIO()
                .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + service + " failed");
        }
        if (signal.equals("KILL")) {
            p.waitFor();
        }
    }

    /** Starts a service again after it died or was killed, and waits until it is healthy. */
    void restart(String service) throws IOException, InterruptedException {
        Process old = processes.get(service);
        if (old != null && old.isAlive()) {
            old.destroy();
            old.waitFor();
        }
        startService(service);
        awaitHealthy(service);
    }

    /** Stops the embedded Redis (its append-only file stays) and starts it again on the same port. */
    void stopRedis() throws IOException {
        if (redis == null) {
            throw new IllegalStateException("Redis is external here");
        }
        redis.stop();
    }

    void startRedis() throws IOException {
        redis.start();
    }

    /** Stops the embedded PostgreSQL (its data directory stays). */
    void stopPostgres() throws IOException {
        if (postgres == null) {
            throw new IllegalStateException("PostgreSQL is external here");
        }
        postgres.close();
        postgres = null;
    }

    void startPostgres() throws IOException {
        Path log = OwnerOnly.file(config.logs().resolve("postgres.log"));
        try {
            postgres = LocalPostgres.start(
                    config.dataDir().resolve("postgres"), config.postgresPort(), secrets.postgresPassword(), log);
        } catch (IOException e) {
            throw new StackException("embedded PostgreSQL did not start (see " + log + "): " + e.getMessage());
        }
    }

    Map<String, Process> processes() {
        return Map.copyOf(processes);
    }

    StackConfig config() {
        return config;
    }

    Secrets secrets() {
        return secrets;
    }

    /** The round-robin proxies in front of replicated services (none when every service runs once). */
    List<RoundRobinProxy> proxies() {
        return List.copyOf(proxies);
    }

    String gatewayUrl() {
        return "http://127.0.0.1:" + config.gatewayPort();
    }

    /** A region's gateway, where that region's visitors are sent. */
    String gatewayUrl(String region) {
        return "http://127.0.0.1:" + config.region(region).gatewayPort();
    }

    /**
     * Stops the stack without the services' graceful shutdown (for a run whose stores have been read): every process
     * is killed at once but those recording their build's class-data-sharing archive (the first run of a build,
     * {@link ServiceJvms}), which are stopped in order so that they write it and the next stack starts from it.
     */
    void stopAbruptly() {
        processes.forEach((name, p) -> {
            ServiceJvms.Launch launch = launches.get(name);
            if (launch == null || launch.recording() == null) {
                p.destroyForcibly();
            }
        });
        close();
    }

    /** Stops the services (gateway first), then the stores. Safe to call twice. */
    @Override
    public void close() {
        List<String> reversed = new ArrayList<>(processes.keySet());
        java.util.Collections.reverse(reversed);
        for (String service : reversed) {
            Process p = processes.get(service);
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (String service : reversed) {
            Process p = processes.get(service);
            try {
                if (!p.waitFor(STOP_GRACE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        proxies.forEach(RoundRobinProxy::close);
        proxies.clear();
        if (redis != null) {
            try {
                redis.stop();
            } catch (IOException | RuntimeException e) {
                System.err.println("warning: embedded Redis did not stop cleanly: " + e.getMessage());
            }
            redis = null;
        }
        regionalRedis.forEach((region, server) -> {
            try {
                server.stop();
            } catch (IOException | RuntimeException e) {
                System.err.println(
                        "warning: embedded Redis of region " + region + " did not stop cleanly: " + e.getMessage());
            }
        });
        regionalRedis.clear();
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            postgres = null;
        }
    }

    /** A failure the person starting the stack can act on; printed without a stack trace. */
    static final class StackException extends RuntimeException {
        StackException(String message) {
            super(message);
        }
    }
}
