package dev.waitroom.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Redis processes of one test topology, from the {@code redis-server} and {@code redis-cli} of Debian's packages
 * ({@link TestTools}: {@code ./waitroom test} installs them). Loopback only, free ports, one temporary directory;
 * {@link #close()} (or the JVM's exit) stops every process it started.
 */
public abstract class LocalRedis implements AutoCloseable {

    private final Path dir;
    private final Map<Integer, Process> processes = new ConcurrentHashMap<>();
    private final Thread shutdownHook = new Thread(this::stopAll, "local-redis-stop");

    protected LocalRedis(String name) {
        TestTools.require("redis-server");
        TestTools.require("redis-cli");
        this.dir = RealStores.tempDirectory("waitroom-" + name);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    protected Path dir() {
        return dir;
    }

    /** Spring Boot's properties that point {@code spring.data.redis} at this set, and at nothing else. */
    public abstract String[] springProperties();

    /** Sets up a new set with {@code setUp}; a set that does not come up is closed before the failure goes on. */
    protected static <R extends LocalRedis> R started(R set, SetUp<R> setUp) {
        try {
            setUp.accept(set);
            return set;
        } catch (IOException e) {
            set.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            set.close();
            throw e;
        }
    }

    /** What brings a set up: starts its processes and waits until they agree. */
    @FunctionalInterface
    protected interface SetUp<R extends LocalRedis> {
        void accept(R set) throws IOException;
    }

    /** Starts {@code redis-server} with these arguments (a config file and/or {@code --option value} pairs). */
    protected Process start(int port, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add("redis-server");
        command.addAll(args);
        try {
            Path log = dir.resolve("redis-" + port + ".log");
            Process process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            processes.put(port, process);
            awaitTrue(
                    "redis on port " + port + " answers PING",
                    Duration.ofSeconds(10),
                    () -> cli(port, "PING").equals("PONG"));
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The common options of every server: loopback, no persistence, its own files. */
    protected List<String> serverArgs(int port) {
        return new ArrayList<>(List.of(
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--protected-mode",
                "no",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--dbfilename",
                "dump-" + port + ".rdb",
                "--logfile",
                ""));
    }

    /** Kills one process at once, as a crash would (SIGKILL). */
    public void kill(int port) {
        Process process = processes.remove(port);
        if (process != null) {
            process.destroyForcibly();
            waitFor(process);
        }
    }

    /** Runs {@code redis-cli -p port args...} and answers its output, trimmed. */
    public String cli(int port, String... args) {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A port that is free, and (for a cluster bus) whose port + 10000 is free too. */
    protected static int freePort(boolean withBus) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20000, 45000);
            if (free(port) && (!withBus || free(port + 10000))) {
                return port;
            }
        }
        throw new IllegalStateException("no free port found");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    protected static void awaitTrue(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting until " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyExiting) {
            // the hook runs anyway
        }
        RealStores.deleteTree(dir);
    }

    private void stopAll() {
        processes.values().forEach(Process::destroy);
        processes.values().forEach(LocalRedis::waitFor);
        processes.clear();
    }

    private static void waitFor(Process process) {
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
