package dev.waitroom.deploy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a running launcher started, written to {@code <data dir>/stack.txt} once the stack is up, so that
 * {@code ./waitroom status} can report on every process and {@code ./waitroom stop} can make sure none is left, even
 * after the launcher itself was killed.
 *
 * <p>One line per entry: {@code service <process> <region or -> <pid> <port> <management port>}, {@code store <name>
 * <pid or -> <port>} for PostgreSQL and each Redis, {@code proxy <service> - <port>} for a round-robin proxy (in the
 * launcher's own process).
 */
final class StackProcesses {

    static final String FILE = "stack.txt";

    /** One line of the file. {@code pid} is -1 where the launcher does not know it (a proxy, an external store). */
    record Entry(String kind, String name, String region, long pid, int port, int managementPort) {

        String line() {
            return String.join(
                    " ",
                    kind,
                    name,
                    region == null ? "-" : region,
                    pid < 0 ? "-" : String.valueOf(pid),
                    String.valueOf(port),
                    managementPort < 0 ? "-" : String.valueOf(managementPort));
        }

        static Entry parse(String line) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 6) {
                throw new IllegalArgumentException("not a stack entry: " + line);
            }
            return new Entry(
                    f[0],
                    f[1],
                    f[2].equals("-") ? null : f[2],
                    f[3].equals("-") ? -1 : Long.parseLong(f[3]),
                    Integer.parseInt(f[4]),
                    f[5].equals("-") ? -1 : Integer.parseInt(f[5]));
        }
    }

    private StackProcesses() {}

    /** The entries of a started stack: every service process, every store it started, every proxy. */
    static List<Entry> of(LocalStack stack) {
        StackConfig c = stack.config();
        List<Entry> entries = new ArrayList<>();
        stack.processes().entrySet().stream()
                .sorted(java.util.Map.Entry.comparingByKey(ordered(c)))
                .forEach(p -> entries.add(new Entry(
                        "service",
                        p.getKey(),
                        c.regionOf(p.getKey()).map(StackConfig.Region::name).orElse(null),
                        p.getValue().pid(),
                        c.servicePorts().get(p.getKey()),
                        c.managementPorts().get(p.getKey()))));
        if (c.external().postgresHostPort() == null) {
            entries.add(new Entry("store", "postgres", null, postmasterPid(c.dataDir()), c.postgresPort(), -1));
        }
        if (c.external().redisHost() == null) {
            List<Long> redisPids = redisPids();
            List<StackConfig.Region> regions =
                    c.regions().isEmpty() ? List.of(new StackConfig.Region("r1", 0, 0, 0, c.redisPort())) : c.regions();
            for (StackConfig.Region region : regions) {
                entries.add(new Entry(
                        "store",
                        c.regions().isEmpty() ? "redis" : "redis-" + region.name(),
                        c.regions().isEmpty() ? null : region.name(),
                        redisPidOn(redisPids, region.redisPort()),
                        region.redisPort(),
                        -1));
            }
        }
        c.proxyPorts()
                .forEach((unit, port) -> entries.add(new Entry(
                        "proxy",
                        unit,
                        c.regionOf(unit).map(StackConfig.Region::name).orElse(null),
                        -1,
                        port,
                        -1)));
        return entries;
    }

    private static java.util.Comparator<String> ordered(StackConfig c) {
        List<String> order = new ArrayList<>(c.servicePorts().keySet());
        return java.util.Comparator.comparingInt(order::indexOf);
    }

    static void write(Path dataDir, List<Entry> entries) throws IOException {
        StringBuilder text = new StringBuilder("# written by ./waitroom run; read by ./waitroom status and stop\n");
        entries.forEach(e -> text.append(e.line()).append('\n'));
        Path tmp = dataDir.resolve(FILE + ".tmp");
        Files.writeString(tmp, text);
        Files.move(
                tmp,
                dataDir.resolve(FILE),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    static List<Entry> read(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (!Files.exists(file)) {
            return List.of();
        }
        return Files.readAllLines(file).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .map(Entry::parse)
                .toList();
    }

    /**
     * The system property on a service JVM's command line that names the stack it belongs to: the service runs from a
     * cache shared by every stack on the machine (ServiceJvms), so its jar's path no longer says whose it is.
     */
    static String stackMarker(Path dataDir) {
        return "-Dwaitroom.stack=" + dataDir;
    }

    /**
     * The live process an entry names, if it is still the one the launcher started: a service's JVM carries the data
     * directory's {@link #stackMarker}, a store's command names redis or postgres (a reused pid is not taken).
     */
    static Optional<ProcessHandle> live(Entry entry, Path dataDir) {
        if (entry.pid() < 0) {
            return Optional.empty();
        }
        return ProcessHandle.of(entry.pid()).filter(ProcessHandle::isAlive).filter(p -> {
            String command = p.info().commandLine().orElse(p.info().command().orElse(""));
            return switch (entry.kind()) {
                case "service" -> (command + " ").contains(stackMarker(dataDir) + " ");
                case "store" -> command.contains("redis") || command.contains("postgres");
                default -> false;
            };
        });
    }

    /** One line per entry for {@code ./waitroom status}: alive, healthy or listening. */
    static List<String> report(List<Entry> entries, Path dataDir) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                "%-7s %-28s %-6s %-8s %-6s %-6s %s", "kind", "process", "region", "pid", "port", "mgmt", "state"));
        for (Entry e : entries) {
            String state;
            if (e.kind().equals("service")) {
                state = live(e, dataDir).isEmpty() ? "NOT RUNNING" : health(http, e.managementPort());
            } else {
                state = listening(e.port()) ? "listening" : "NOT LISTENING";
            }
            lines.add(String.format(
                    "%-7s %-28s %-6s %-8s %-6d %-6s %s",
                    e.kind(),
                    e.name(),
                    e.region() == null ? "-" : e.region(),
                    e.pid() < 0 ? "-" : String.valueOf(e.pid()),
                    e.port(),
                    e.managementPort() < 0 ? "-" : String.valueOf(e.managementPort()),
                    state));
        }
        return lines;
    }

    private static String health(HttpClient http, int managementPort) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/health"))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().contains("\"UP\"") ? "UP" : "running, health " + r.statusCode();
        } catch (IOException e) {
            return "running, health not answering";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "running";
        }
    }

    static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The embedded PostgreSQL's postmaster, from the first line of its {@code postmaster.pid}. */
    private static long postmasterPid(Path dataDir) {
        try {
            return Long.parseLong(Files.readAllLines(dataDir.resolve("postgres").resolve("postmaster.pid"))
                    .get(0)
                    .trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The embedded Redis servers this launcher started (its descendants running redis-server). */
    private static List<Long> redisPids() {
        return ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().command().orElse("").contains("redis"))
                .map(ProcessHandle::pid)
                .toList();
    }

    private static long redisPidOn(List<Long> pids, int port) {
        for (long pid : pids) {
            // Redis rewrites its command line to "<binary> 127.0.0.1:<port>" as one argument, which
            // ProcessHandle.Info does not return, so it is read as the kernel has it.
            String command;
            try {
                command = Files.readString(Path.of("/proc", String.valueOf(pid), "cmdline"))
                        .replace('\0', ' ')
                        .strip();
            } catch (IOException | RuntimeException notLinux) {
                command = "";
            }
            if (command.endsWith(":" + port)) {
                return pid;
            }
        }
        return pids.size() == 1 ? pids.get(0) : -1;
    }
}
