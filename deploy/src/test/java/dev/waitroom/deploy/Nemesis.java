package dev.waitroom.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The chaos run's nemesis (docs/operating/chaos.md): a fault schedule drawn from the seed before the run starts, then
 * played against the stack on two lanes, so faults overlap: processes and stores (kill -9 and restart, SIGSTOP past a
 * lease and SIGCONT, a Redis or PostgreSQL restart) on one, the network between services (latency, connections
 * refused or reset, a one-way partition, at the round-robin proxies the stack puts between them) on the other. Every
 * fault is healed when its time is up, and {@link #healAll} heals whatever is left before the end.
 */
final class Nemesis implements AutoCloseable {

    /** A fault the nemesis can inject. */
    enum Kind {
        KILL,
        PAUSE,
        REDIS_RESTART,
        POSTGRES_RESTART,
        LATENCY,
        REFUSE,
        RESET,
        ONE_WAY;

        boolean network() {
            return this == LATENCY || this == REFUSE || this == RESET || this == ONE_WAY;
        }
    }

    /** One planned fault: when (from the start of the run), what, on which process or proxy, for how long. */
    record Fault(long atMillis, Kind kind, String target, long forMillis, long latencyMillis) {
        String line() {
            return String.format(
                    "  t+%6.1fs  %-16s %-34s for %5.1fs%s",
                    atMillis / 1000.0,
                    kind,
                    target,
                    forMillis / 1000.0,
                    latencyMillis > 0 ? " (+" + latencyMillis + " ms)" : "");
        }
    }

    /** A lease is at most 5 s (coordinator's Leases.MAX_LEASE): a pause must outlast it to test the fencing. */
    private static final long LEASE_MILLIS = 5_000;

    private final LocalStack stack;
    private final ChaosHistory history;
    private final List<Fault> schedule;
    private final long startedAt;
    private final Set<String> paused = ConcurrentHashMap.newKeySet();
    private final Set<String> killed = ConcurrentHashMap.newKeySet();
    private volatile boolean redisDown;
    private volatile boolean postgresDown;
    private final List<Thread> lanes = new ArrayList<>();
    private volatile boolean stopping;
    private final List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<String> skipped = java.util.Collections.synchronizedList(new ArrayList<>());

    /** A fault whose lane is this late for it (a restart took longer than planned) is not played. */
    private static final long LATE_MILLIS = 5_000;

    private Nemesis(LocalStack stack, ChaosHistory history, List<Fault> schedule, long startedAt) {
        this.stack = stack;
        this.history = history;
        this.schedule = schedule;
        this.startedAt = startedAt;
    }

    /**
     * The schedule for a run of {@code run} on this stack: faults from 10 s in until 25 s before the end, every 6 to
     * 16 s on each lane. The same seed and stack shape give the same schedule: the targets are drawn from the names
     * sorted, since the stack lists its processes in the order they happened to start (seed 31 drew
     * {@code gateway-service} on one run and {@code queue-service} on the next from the same index).
     */
    static List<Fault> plan(long seed, Duration run, List<String> processNames, List<String> proxyNames) {
        List<String> processes = processNames.stream().sorted().toList();
        List<String> proxies = proxyNames.stream().sorted().toList();
        List<Fault> faults = new ArrayList<>();
        long end = run.toMillis() - 25_000;
        Random processLane = new Random(seed);
        long t = 10_000;
        while (true) {
            t += 6_000 + processLane.nextInt(10_000);
            if (t >= end) {
                break;
            }
            int pick = processLane.nextInt(10);
            if (pick < 4) {
                faults.add(new Fault(
                        t,
                        Kind.KILL,
                        processes.get(processLane.nextInt(processes.size())),
                        1_000 + processLane.nextInt(4_000),
                        0));
            } else if (pick < 7) {
                faults.add(new Fault(
                        t,
                        Kind.PAUSE,
                        processes.get(processLane.nextInt(processes.size())),
                        LEASE_MILLIS + 1_000 + processLane.nextInt(3_000),
                        0));
            } else if (pick < 9) {
                faults.add(new Fault(t, Kind.REDIS_RESTART, "redis", 1_000 + processLane.nextInt(3_000), 0));
            } else {
                faults.add(new Fault(t, Kind.POSTGRES_RESTART, "postgres", 1_000 + processLane.nextInt(3_000), 0));
            }
        }
        if (!proxies.isEmpty()) {
            Random networkLane = new Random(~seed);
            t = 12_000;
            while (true) {
                t += 5_000 + networkLane.nextInt(10_000);
                if (t >= end) {
                    break;
                }
                Kind kind = List.of(Kind.LATENCY, Kind.REFUSE, Kind.RESET, Kind.ONE_WAY)
                        .get(networkLane.nextInt(4));
                faults.add(new Fault(
                        t,
                        kind,
                        proxies.get(networkLane.nextInt(proxies.size())) + " proxy",
                        2_000 + networkLane.nextInt(6_000),
                        kind == Kind.LATENCY ? 100 + networkLane.nextInt(1_400) : 0));
            }
        }
        faults.sort(java.util.Comparator.comparingLong(Fault::atMillis));
        return List.copyOf(faults);
    }

    /** Starts playing {@code schedule}, whose times count from {@code startedAt} (epoch ms). */
    static Nemesis start(LocalStack stack, ChaosHistory history, List<Fault> schedule, long startedAt) {
        Nemesis n = new Nemesis(stack, history, schedule, startedAt);
        n.lane(
                "nemesis-processes",
                schedule.stream().filter(f -> !f.kind().network()).toList());
        n.lane(
                "nemesis-network",
                schedule.stream().filter(f -> f.kind().network()).toList());
        return n;
    }

    List<String> errors() {
        return List.copyOf(errors);
    }

    /** The planned faults left out because their lane was still busy with an earlier one. */
    List<String> skipped() {
        return List.copyOf(skipped);
    }

    private void lane(String name, List<Fault> faults) {
        Thread thread = new Thread(
                () -> {
                    for (Fault f : faults) {
                        while (!stopping && System.currentTimeMillis() < startedAt + f.atMillis()) {
                            sleep(100);
                        }
                        if (stopping) {
                            return;
                        }
                        if (System.currentTimeMillis() > startedAt + f.atMillis() + LATE_MILLIS) {
                            // a restart before it took longer than planned: played this late, the fault could
                            // outlast the run, so it is left out (and said so), not shifted
                            skipped.add(f.line());
                            continue;
                        }
                        try {
                            play(f);
                        } catch (Exception e) {
                            errors.add(f.line() + ": " + e);
                        }
                    }
                },
                name);
        thread.setDaemon(true);
        lanes.add(thread);
        thread.start();
    }

    private void play(Fault f) throws Exception {
        long at = System.currentTimeMillis();
        switch (f.kind()) {
            case KILL -> {
                killed.add(f.target());
                stack.signal(f.target(), "KILL");
                sleep(f.forMillis());
                stack.restart(f.target());
                killed.remove(f.target());
            }
            case PAUSE -> {
                paused.add(f.target());
                stack.signal(f.target(), "STOP");
                try {
                    sleep(f.forMillis());
                } finally {
                    stack.signal(f.target(), "CONT");
                    paused.remove(f.target());
                }
            }
            case REDIS_RESTART -> {
                redisDown = true;
                stack.stopRedis();
                sleep(f.forMillis());
                stack.startRedis();
                redisDown = false;
            }
            case POSTGRES_RESTART -> {
                postgresDown = true;
                stack.stopPostgres();
                sleep(f.forMillis());
                stack.startPostgres();
                postgresDown = false;
            }
            default -> {
                RoundRobinProxy proxy = proxy(f.target());
                switch (f.kind()) {
                    case LATENCY -> proxy.inject(new RoundRobinProxy.NetworkFault(f.latencyMillis(), false, false));
                    case REFUSE -> proxy.inject(new RoundRobinProxy.NetworkFault(0, true, false));
                    case ONE_WAY -> proxy.inject(new RoundRobinProxy.NetworkFault(0, false, true));
                    default -> proxy.resetConnections();
                }
                try {
                    if (f.kind() == Kind.RESET) {
                        // resets the open connections a few times over the fault's span
                        for (long spent = 0; spent < f.forMillis(); spent += 1_000) {
                            proxy.resetConnections();
                            sleep(1_000);
                        }
                    } else {
                        sleep(f.forMillis());
                    }
                } finally {
                    proxy.heal();
                }
            }
        }
        history.fault(f.kind().name(), f.target(), at, System.currentTimeMillis());
    }

    private RoundRobinProxy proxy(String target) {
        String service = target.replace(" proxy", "");
        return stack.proxies().stream()
                .filter(p -> p.service().equals(service))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no proxy for " + service));
    }

    /** Stops the lanes and heals everything still broken: CONT, restart, stores up, proxies clean. */
    void healAll() throws Exception {
        // a lane finishes the fault it is playing (it heals it), then stops
        stopping = true;
        for (Thread lane : lanes) {
            lane.join(240_000);
        }
        for (RoundRobinProxy p : stack.proxies()) {
            p.heal();
        }
        for (String p : Set.copyOf(paused)) {
            stack.signal(p, "CONT");
            paused.remove(p);
        }
        if (postgresDown) {
            stack.startPostgres();
            postgresDown = false;
        }
        if (redisDown) {
            stack.startRedis();
            redisDown = false;
        }
        for (String p : stack.processes().keySet()) {
            if (!stack.processes().get(p).isAlive()) {
                stack.restart(p);
            }
        }
        killed.clear();
        for (String p : stack.processes().keySet()) {
            stack.awaitHealthy(p);
        }
    }

    /** False when interrupted (the run is ending). */
    private static boolean sleep(long millis) {
        if (millis <= 0) {
            return true;
        }
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() throws Exception {
        healAll();
    }
}
