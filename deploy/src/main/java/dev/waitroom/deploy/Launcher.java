package dev.waitroom.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./waitroom run [--demo] [--simulations] [--replicas N | --regions N]} starts the whole waiting room (N
 * gateways, queue-services and coordinators behind a round-robin proxy each, booking once; or N regions, each with its
 * own gateway, queue-service, coordinator and Redis, sharing PostgreSQL and booking: docs/operating/regions.md);
 * {@code ./waitroom status} reports on every process; {@code ./waitroom stop} stops a running one;
 * {@code ./waitroom reset} deletes its data (queue, grants, orders, secrets).
 *
 * <p>{@code --simulations} switches on booking's payment simulator and fault injection, which a plain run (like
 * compose and production) does not have; {@code --demo} does too, and creates a demo event.
 */
public final class Launcher {

    private Launcher() {}

    public static void main(String[] args) {
        List<String> arguments = List.of(args);
        String command = arguments.isEmpty() ? "run" : arguments.get(0);
        Path repoRoot = Path.of(System.getProperty("waitroom.root", "."))
                .toAbsolutePath()
                .normalize();
        Path dataDir = Path.of(System.getenv()
                        .getOrDefault(
                                "WAITROOM_DATA_DIR",
                                repoRoot.resolve(".waitroom").toString()))
                .toAbsolutePath()
                .normalize();
        try {
            int code = switch (command) {
                case "run" ->
                    run(
                            repoRoot,
                            dataDir,
                            arguments.contains("--demo"),
                            simulations(arguments),
                            replicas(arguments),
                            regions(arguments));
                case "stop" -> stop(dataDir);
                case "status" -> status(dataDir);
                case "reset" -> reset(dataDir);
                default -> {
                    System.err.println(
                            "usage: waitroom run [--demo] [--simulations] [--replicas N | --regions N] | status | stop"
                                    + " | reset");
                    yield 64;
                }
            };
            System.exit(code);
        } catch (LocalStack.StackException e) {
            System.err.println("waitroom: " + e.getMessage());
            System.exit(2);
        } catch (IllegalArgumentException e) {
            System.err.println("waitroom: " + e.getMessage());
            System.exit(64);
        } catch (IOException e) {
            System.err.println("waitroom: " + e);
            System.exit(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.exit(130);
        }
    }

    /** Booking's payment simulator and fault injection: on with {@code --simulations} or {@code --demo} only. */
    static boolean simulations(List<String> arguments) {
        return arguments.contains("--simulations") || arguments.contains("--demo");
    }

    /** {@code --replicas N} or {@code --replicas=N}; 1 when absent. */
    static int replicas(List<String> arguments) {
        return count(arguments, "--replicas");
    }

    /** {@code --regions N} or {@code --regions=N}; 1 (a single region, no region name) when absent. */
    static int regions(List<String> arguments) {
        return count(arguments, "--regions");
    }

    private static int count(List<String> arguments, String option) {
        for (int i = 0; i < arguments.size(); i++) {
            String a = arguments.get(i);
            String value = a.startsWith(option + "=")
                    ? a.substring(option.length() + 1)
                    : a.equals(option) && i + 1 < arguments.size() ? arguments.get(i + 1) : null;
            if (a.equals(option) || a.startsWith(option + "=")) {
                try {
                    return Integer.parseInt(String.valueOf(value).trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(option + " needs a number, e.g. " + option + " 2");
                }
            }
        }
        return 1;
    }

    private static int run(Path repoRoot, Path dataDir, boolean demo, boolean simulations, int replicas, int regions)
            throws IOException, InterruptedException {
        OwnerOnly.directory(dataDir);
        Path pidFile = dataDir.resolve("launcher.pid");
        Optional<ProcessHandle> running =
                readPid(pidFile).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive);
        if (running.isPresent()) {
            throw new LocalStack.StackException(
                    "a Waitroom is already running (pid " + running.get().pid() + "); stop it with ./waitroom stop");
        }
        String offset = System.getenv().getOrDefault("WAITROOM_PORT_OFFSET", "0");
        StackConfig config = StackConfig.defaults(
                        repoRoot, dataDir, StackConfig.ExternalStores.fromEnvironment(System.getenv()))
                .withPortOffset(Integer.parseInt(offset.trim()))
                .withRegions(regions)
                .withReplicas(replicas)
                .withSimulations(simulations);
        System.out.println("waitroom: starting PostgreSQL, Redis and "
                + (regions > 1
                        ? regions + " regions (" + (replicas == 1 ? "a" : replicas + " of each:")
                                + " gateway, queue-service, coordinator and a Redis each), one booking-service"
                        : replicas == 1
                                ? "four services"
                                : replicas
                                        + " instances of the gateway, queue-service and coordinator, one booking-service")
                + " (data in " + dataDir + ") ...");
        LocalStack stack = LocalStack.start(config);
        Files.writeString(pidFile, String.valueOf(ProcessHandle.current().pid()));
        StackProcesses.write(dataDir, StackProcesses.of(stack));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.out.println("\nwaitroom: stopping ...");
                            stack.close();
                            try {
                                Files.deleteIfExists(pidFile);
                                Files.deleteIfExists(dataDir.resolve(StackProcesses.FILE));
                            } catch (IOException ignored) {
                                // the next run checks whether the pid is alive
                            }
                            System.out.println("waitroom: stopped, nothing left running");
                            stopped.countDown();
                        },
                        "waitroom-stop"));
        if (demo) {
            createDemoEvent(stack);
        }
        printBanner(stack, demo);
        stopped.await();
        return 0;
    }

    private static void printBanner(LocalStack stack, boolean demo) {
        StackConfig c = stack.config();
        System.out.println();
        System.out.println("Waitroom is running.");
        if (demo && !c.regions().isEmpty()) {
            c.regions()
                    .forEach(r -> System.out.println("  waiting room:   " + stack.gatewayUrl(r.name())
                            + "/events/demo (region " + r.name() + "'s visitors)"));
        } else if (demo) {
            System.out.println("  waiting room:   " + stack.gatewayUrl() + "/events/demo");
        } else {
            System.out.println(
                    "  gateway:        " + stack.gatewayUrl() + " (create an event: see README, or run with --demo)");
        }
        System.out.println("  ops token:      WAITROOM_SECURITY_OPSTOKEN in "
                + stack.secrets().file());
        System.out.println("  logs:           " + c.logs() + "/<process>.log for "
                + String.join(", ", c.servicePorts().keySet()));
        System.out.println("  services:       gateway " + c.gatewayPort() + ", queue " + c.queuePort()
                + ", coordinator " + c.coordinatorPort() + ", booking " + c.bookingPort()
                + " (only the gateway is meant for visitors; all listen on 127.0.0.1 unless "
                + "WAITROOM_GATEWAY_ADDRESS names the gateway's)");
        System.out.println("  management:     "
                + String.join(
                        ", ",
                        c.managementPorts().entrySet().stream()
                                .map(e -> e.getKey() + " " + e.getValue())
                                .toList())
                + " (health, metrics, info; 127.0.0.1 only)");
        System.out.println(
                c.simulations()
                        ? "  payments:       SIMULATED (--demo/--simulations: booking's payment simulator and fault injection)"
                        : "  payments:       no simulator: an order is paid when the provider's signed webhook arrives"
                                + " (run with --simulations to simulate payments)");
        c.proxyPorts()
                .forEach((service, port) -> System.out.println("  replicas:       " + service + " on " + port
                        + " is a round-robin proxy to " + c.instancePorts().get(service)));
        if (!c.regions().isEmpty()) {
            System.out.println();
            regionTable(c).forEach(System.out::println);
        }
        System.out.println("  stop:           Ctrl-C here, or ./waitroom stop (./waitroom status lists every process)");
    }

    /**
     * The regions' table: each region's gateway (where its visitors go), its services' ports and its Redis, then what
     * they share.
     */
    static List<String> regionTable(StackConfig c) {
        List<String> lines = new java.util.ArrayList<>();
        lines.add(String.format(
                "  %-7s %-24s %-6s %-6s %-12s %-6s %s",
                "region", "gateway URL", "queue", "coord", "management", "redis", "logs"));
        for (StackConfig.Region r : c.regions()) {
            lines.add(String.format(
                    "  %-7s %-24s %-6d %-6d %-12s %-6d %s",
                    r.name(),
                    "http://127.0.0.1:" + r.gatewayPort(),
                    r.queuePort(),
                    r.coordinatorPort(),
                    // replicas have management ports of their own (the banner's management line)
                    c.proxyPorts().isEmpty()
                            ? (r.gatewayPort() + StackConfig.MANAGEMENT_OFFSET) + "-"
                                    + (r.coordinatorPort() + StackConfig.MANAGEMENT_OFFSET)
                            : "per replica",
                    r.redisPort(),
                    c.processOf(r, "<service>") + ".log"));
        }
        lines.add("  shared: PostgreSQL " + c.postgresPort() + " (the capacity ledger), booking-service "
                + c.bookingPort() + " (it reports its health to region "
                + c.regions().get(0).name()
                + "'s coordinator); each coordinator runs with WAITROOM_REGION_NAME=<region>");
        return lines;
    }

    /** A demo event that opens in two minutes, with a pre-sale group forming now and seats to buy. */
    static void createDemoEvent(LocalStack stack) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        String base = stack.gatewayUrl();
        String opens = java.time.Instant.now()
                .plusSeconds(120)
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .toString();
        String event = """
                {"eventId":"demo","name":"Demo concert","opensAt":"%s","maxActiveSessions":50,
                 "maxAdmissionsPerSecond":2,"offerTtlSeconds":60,"sessionTtlSeconds":300,"sessionMaxSeconds":900,
                 "presaleOrdering":"RANDOM","identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE",
                 "afterPurchase":"RELEASE"}""".formatted(opens);
        HttpResponse<String> created = send(
                http, "POST", base + "/admin/events", event, stack.secrets().opsToken());
        if (created.statusCode() != 201 && created.statusCode() != 409) {
            throw new LocalStack.StackException(
                    "demo event not created: HTTP " + created.statusCode() + " " + created.body());
        }
        String inventory = """
                {"categories":[{"name":"Floor","seats":200,"priceCents":8900},
                               {"name":"Balcony","seats":300,"priceCents":5900}]}""";
        HttpResponse<String> seats = send(
                http,
                "PUT",
                base + "/admin/events/demo/inventory",
                inventory,
                stack.secrets().opsToken());
        if (seats.statusCode() / 100 != 2) {
            throw new LocalStack.StackException(
                    "demo inventory not created: HTTP " + seats.statusCode() + " " + seats.body());
        }
        System.out.println("waitroom: demo event 'demo' "
                + (created.statusCode() == 201 ? "created; it opens at " + opens : "already exists"));
    }

    static HttpResponse<String> send(HttpClient http, String method, String url, String body, String opsToken)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + opsToken)
                // no body where there is none: the gateway refuses a body on a route that takes none
                .method(
                        method,
                        body == null || body.isEmpty()
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static int stop(Path dataDir) throws IOException, InterruptedException {
        Optional<ProcessHandle> launcher =
                readPid(dataDir.resolve("launcher.pid")).flatMap(ProcessHandle::of);
        boolean running = launcher.isPresent() && launcher.get().isAlive();
        if (running) {
            launcher.get().destroy();
            try {
                launcher.get().onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new LocalStack.StackException(
                        "the launcher (pid " + launcher.get().pid() + ") did not stop within 60 s");
            }
        }
        // A launcher that was killed outright (kill -9) could not stop its processes: stop what it left, services
        // first.
        List<StackProcesses.Entry> entries = StackProcesses.read(dataDir);
        List<ProcessHandle> left = new java.util.ArrayList<>();
        for (String kind : List.of("service", "store")) {
            for (StackProcesses.Entry entry : entries) {
                if (entry.kind().equals(kind)) {
                    StackProcesses.live(entry, dataDir).ifPresent(p -> {
                        System.out.println("waitroom: stopping " + entry.name() + " (pid " + p.pid()
                                + "), left running by a launcher that did not stop it");
                        p.destroy();
                        left.add(p);
                    });
                }
            }
            for (ProcessHandle p : left) {
                try {
                    p.onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    p.destroyForcibly();
                }
            }
        }
        Files.deleteIfExists(dataDir.resolve(StackProcesses.FILE));
        if (!running) {
            Files.deleteIfExists(dataDir.resolve("launcher.pid"));
        }
        System.out.println(running || !left.isEmpty() ? "waitroom: stopped" : "waitroom: not running");
        return 0;
    }

    /** Every process the running launcher started, each with its port and whether it is alive and healthy. */
    private static int status(Path dataDir) throws IOException {
        Optional<ProcessHandle> launcher = readPid(dataDir.resolve("launcher.pid"))
                .flatMap(ProcessHandle::of)
                .filter(ProcessHandle::isAlive);
        List<StackProcesses.Entry> entries = StackProcesses.read(dataDir);
        if (launcher.isEmpty()
                && entries.stream()
                        .noneMatch(e -> StackProcesses.live(e, dataDir).isPresent())) {
            System.out.println("waitroom: not running");
            return 3;
        }
        System.out.println(
                launcher.map(p -> "waitroom: launcher running (pid " + p.pid() + ")")
                        .orElse(
                                "waitroom: the launcher is gone but some of its processes are left; ./waitroom stop stops them"));
        if (entries.isEmpty()) {
            System.out.println("waitroom: still starting (no process list yet in " + dataDir + ")");
            return 0;
        }
        StackProcesses.report(entries, dataDir).forEach(System.out::println);
        return 0;
    }

    private static int reset(Path dataDir) throws IOException, InterruptedException {
        stop(dataDir);
        if (Files.exists(dataDir)) {
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
        System.out.println("waitroom: data removed (" + dataDir + ")");
        return 0;
    }

    private static Optional<Long> readPid(Path pidFile) {
        try {
            return Files.exists(pidFile)
                    ? Optional.of(Long.parseLong(Files.readString(pidFile).trim()))
                    : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
