package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.chaos.checker.History;
import dev.waitroom.chaos.checker.HistoryChecker;
import dev.waitroom.chaos.checker.Stores;
import dev.waitroom.chaos.checker.Verdict;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A sale under random faults, checked by the independent history checker (issue #31, docs/operating/chaos.md): one
 * stack, a seeded fault schedule played by the {@link Nemesis} while the {@link ChaosWorkload} sells, every operation
 * in the history, the ledger's live grants sampled every 100 ms, everything healed, then the checker's verdict.
 *
 * <p>By default the 2-minute CI run on one region with two coordinators, the coordinators and the queue-service behind
 * fault proxies. {@code -Dchaos.minutes=30}, {@code -Dchaos.seed=S}, {@code -Dchaos.regions=2} (each region's
 * queue-service and coordinator behind proxies of their own), {@code -Dchaos.replicas=2} (both together: two of each
 * in each region), {@code -Dchaos.visitors=N} change it; {@code ./waitroom chaos} passes them. A failure
 * prints the seed, the schedule and the counter-examples; the same seed plays the same schedule again.
 */
@Tag("chaos")
class ChaosTests {

    private static final int CEILING = 24;
    private static final int RATE = 8;

    @Test
    void aSaleUnderRandomFaultsKeepsEveryInvariant() throws Exception {
        long seed = Long.getLong("chaos.seed", System.nanoTime() & 0xffffffffL);
        Duration run = Duration.ofSeconds((long) (60 * Double.parseDouble(System.getProperty("chaos.minutes", "2"))));
        int regions = Integer.getInteger("chaos.regions", 1);
        int replicas = Integer.getInteger("chaos.replicas", 1);
        int visitors = Integer.getInteger("chaos.visitors", (int) Math.min(12_000, 500 * run.toSeconds() / 60 + 500));
        String profile = "seed " + seed + ", " + run.toSeconds() + " s, " + visitors + " visitors, "
                + (regions > 1 ? regions + " regions" : "one region")
                + (replicas > 1 ? ", " + replicas + " replicas" : "")
                + ", ceiling " + CEILING + ", " + RATE + " offers/s";
        System.out.println("chaos run: " + profile);
        String reproduce = "./waitroom chaos --minutes " + run.toSeconds() / 60.0 + " --seed " + seed
                + (regions > 1 ? " --regions " + regions : "")
                + (replicas > 1 ? " --replicas " + replicas : "")
                + (System.getProperty("chaos.visitors") != null ? " --visitors " + visitors : "");
        System.out.println("chaos run: reproduce with " + reproduce);

        Path dataDir = Files.createTempDirectory("waitroom-chaos");
        Path out = Path.of("target", "chaos");
        Files.createDirectories(out);
        Path historyFile = out.resolve("history-" + seed + ".jsonl");
        LocalStack starting = null;
        for (int attempt = 1; starting == null; attempt++) {
            try {
                starting = LocalStack.start(config(dataDir, regions, replicas));
            } catch (RuntimeException | java.io.IOException e) {
                if (attempt < 3 && String.valueOf(e.getMessage()).contains("already in use")) {
                    // a free port picked minutes before a slow JVM bound it was taken by another build meanwhile:
                    // new ports, a new data directory, the same run
                    System.out.println("chaos run: stack start lost a port to another process, starting again");
                    TestStacks.keepLogsAndDelete(dataDir, "chaos/logs-" + seed + "-start-" + attempt);
                    dataDir = Files.createTempDirectory("waitroom-chaos");
                    continue;
                }
                // a stack that did not come up (on a loaded machine a service may take minutes) leaves its logs
                TestStacks.keepLogsAndDelete(dataDir, "chaos/logs-" + seed);
                throw e;
            }
        }
        // a run stopped from outside (the script's time bound ends Maven, Surefire's fork exits) takes its stack with
        // it
        LocalStack stack = starting;
        Thread stopStack = new Thread(
                () -> {
                    stack.processes().values().forEach(Process::destroyForcibly);
                    stack.close();
                },
                "chaos-stack-stop");
        Runtime.getRuntime().addShutdownHook(stopStack);
        Verdict verdict;
        List<Nemesis.Fault> schedule;
        List<String> nemesisErrors;
        List<String> skipped;
        Map<String, Long> counts;
        try (ChaosHistory history = new ChaosHistory(historyFile)) {
            history.run(seed, profile);
            String event = "chaos-" + Long.toString(seed, 36);
            createSale(stack, event);
            history.event(event, CEILING, System.currentTimeMillis());

            List<String> processes = new ArrayList<>(stack.processes().keySet());
            List<String> proxies =
                    stack.proxies().stream().map(RoundRobinProxy::service).toList();
            schedule = Nemesis.plan(seed, run, processes, proxies);
            System.out.println("chaos run: fault schedule (" + schedule.size() + " faults)");
            schedule.forEach(f -> System.out.println(f.line()));

            Map<String, String> gateways = new LinkedHashMap<>();
            if (regions > 1) {
                stack.config().regions().forEach(r -> gateways.put(r.name(), stack.gatewayUrl(r.name())));
            } else {
                gateways.put("", stack.gatewayUrl());
            }
            long startedAt = System.currentTimeMillis();
            ScheduledExecutorService sampler = sample(stack, history, event);
            try (ChaosWorkload workload = new ChaosWorkload(stack, history, event, seed, gateways)) {
                Nemesis nemesis = Nemesis.start(stack, history, schedule, startedAt);
                workload.start(visitors, run, startedAt);
                Thread.sleep(Math.max(0, startedAt + run.toMillis() - System.currentTimeMillis()));
                workload.close();
                nemesis.healAll();
                nemesisErrors = nemesis.errors();
                skipped = nemesis.skipped();
                workload.resumeIfPaused();
                workload.resolveUnknownJoins();
                // the outboxes catch up with what the faults held back (the queue hears of grants it missed)
                Thread.sleep(10_000);
                counts = workload.counts();
            } finally {
                sampler.shutdownNow();
                sampler.awaitTermination(5, TimeUnit.SECONDS);
            }
        }
        try {
            verdict = HistoryChecker.check(History.read(historyFile), stores(stack, regions));
        } finally {
            // the stores have been read: nothing is left to shut down gracefully, and a graceful stop of every JVM
            // costs the run tens of seconds on a loaded machine; a first run of a build still writes its
            // class-data-sharing archive, which the next run's stack start maps
            stack.stopAbruptly();
            Runtime.getRuntime().removeShutdownHook(stopStack);
            TestStacks.keepLogsAndDelete(dataDir, "chaos/logs-" + seed);
        }
        String text = "chaos run: " + profile + "\n"
                + "reproduce: " + reproduce + "\n"
                + "fault schedule (" + schedule.size() + " faults, times from the start of the sale)\n"
                + schedule.stream().map(f -> f.line() + "\n").collect(java.util.stream.Collectors.joining())
                + "workload " + counts + "\n"
                + (nemesisErrors.isEmpty() ? "" : "nemesis errors " + nemesisErrors + "\n")
                + (skipped.isEmpty() ? "" : "faults not played (their lane was late): " + skipped + "\n")
                + verdict.text() + "history: " + historyFile.toAbsolutePath() + "\n";
        System.out.println(text);
        Files.writeString(out.resolve("verdict-" + seed + ".txt"), text);
        assertThat(nemesisErrors)
                .as("every planned fault was played and healed (seed %d)", seed)
                .isEmpty();
        assertThat(verdict.passed()).as("seed %d\n%s", seed, verdict.text()).isTrue();
    }

    private static StackConfig config(Path dataDir, int regions, int replicas) throws Exception {
        if (regions > 1) {
            // each region's services behind proxies of their own, so the network lane breaks the calls inside every
            // region: `replicas` of each replicated service, or one queue-service and one coordinator behind a proxy
            StackConfig two = TwoRegions.config(dataDir, true);
            List<String> services =
                    replicas > 1 ? StackConfig.REPLICATED : List.of("queue-service", "admission-coordinator");
            int[] ports = TestPorts.free(two.regions().size() * services.size() * replicas);
            int next = 0;
            for (StackConfig.Region region : two.regions()) {
                for (String service : services) {
                    List<Integer> instances = new ArrayList<>();
                    for (int k = 0; k < replicas; k++) {
                        instances.add(ports[next++]);
                    }
                    two = two.withInstances(two.processOf(region, service), instances);
                }
            }
            return two;
        }
        int[] ports = TestPorts.free(9);
        StackConfig c = TestStacks.config(dataDir, ports, StackConfig.ExternalStores.none());
        if (replicas > 1) {
            return c.withReplicas(replicas).withSimulations(true);
        }
        // two coordinators behind their proxy and the queue-service behind one: the network faults' places
        return c.withCoordinators(List.of(ports[6], ports[7]))
                .withInstances("queue-service", List.of(ports[8]))
                .withSimulations(true);
    }

    private static void createSale(LocalStack stack, String event) throws Exception {
        String body = """
                {"eventId":"%s","name":"Chaos run","opensAt":null,"maxActiveSessions":%d,"maxAdmissionsPerSecond":%d,
                 "offerTtlSeconds":10,"sessionTtlSeconds":20,"sessionMaxSeconds":40,"presaleOrdering":"FIFO",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(event, CEILING, RATE);
        HttpResponse<String> created = TestStacks.ops(stack, stack.gatewayUrl(), "POST", "/admin/events", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> inventory = TestStacks.ops(
                stack,
                stack.gatewayUrl(),
                "PUT",
                "/admin/events/" + event + "/inventory",
                "{\"categories\":[{\"name\":\"Floor\",\"seats\":400,\"priceCents\":5000}]}");
        assertThat(inventory.statusCode() / 100).as(inventory.body()).isEqualTo(2);
    }

    /** The ledger's live grants every 100 ms, into the history; a sample PostgreSQL could not answer is skipped. */
    private static ScheduledExecutorService sample(LocalStack stack, ChaosHistory history, String event) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "chaos-ledger-sampler");
            t.setDaemon(true);
            return t;
        });
        Connection[] connection = new Connection[1];
        timer.scheduleAtFixedRate(
                () -> {
                    try {
                        if (connection[0] == null || connection[0].isClosed()) {
                            connection[0] = DriverManager.getConnection(
                                    stack.jdbcUrl("coordinator"), stack.postgresUser(), stack.postgresPassword());
                        }
                        try (PreparedStatement s = connection[0].prepareStatement("select count(*) from grants"
                                + " where event_id = ? and state in ('OFFERED','ACTIVE')")) {
                            s.setString(1, event);
                            s.setQueryTimeout(1);
                            try (ResultSet rs = s.executeQuery()) {
                                rs.next();
                                history.sample(event, System.currentTimeMillis(), rs.getLong(1), CEILING);
                            }
                        }
                    } catch (Exception storeDown) {
                        try {
                            if (connection[0] != null) {
                                connection[0].close();
                            }
                        } catch (Exception ignored) {
                            // already gone
                        }
                        connection[0] = null;
                    }
                },
                0,
                100,
                TimeUnit.MILLISECONDS);
        return timer;
    }

    private static Stores stores(LocalStack stack, int regions) {
        Map<String, Stores.RedisAddress> redis = new LinkedHashMap<>();
        if (regions > 1) {
            stack.config()
                    .regions()
                    .forEach(r -> redis.put(
                            r.name(), new Stores.RedisAddress("127.0.0.1", r.redisPort(), stack.redisPassword())));
        } else {
            redis.put("", new Stores.RedisAddress("127.0.0.1", stack.redisPort(), stack.redisPassword()));
        }
        return new Stores(
                stack.jdbcUrl("coordinator"),
                stack.jdbcUrl("booking"),
                stack.postgresUser(),
                stack.postgresPassword(),
                redis);
    }
}
