package dev.waitroom.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A real Sentinel set on loopback: a primary, two replicas, and three sentinels (quorum 2) that fail over after one
 * second without the primary; after a failover the new primary still has a replica. Point a service at it with
 * {@link #springProperties()}: {@code spring.data.redis.sentinel.master=}{@link #MASTER} and
 * {@code spring.data.redis.sentinel.nodes=}{@link #nodes()}.
 */
public final class LocalRedisSentinels extends LocalRedis {

    public static final String MASTER = "waitroom";

    private final List<Integer> servers = new ArrayList<>();
    private final List<Integer> sentinels = new ArrayList<>();

    private LocalRedisSentinels() {
        super("redis-sentinel");
    }

    public static LocalRedisSentinels start() {
        return started(new LocalRedisSentinels(), set -> {
            int primary = freePort(false);
            set.start(primary, set.serverArgs(primary));
            set.servers.add(primary);
            for (int i = 0; i < 2; i++) {
                int replica = freePort(false);
                List<String> replicaArgs = set.serverArgs(replica);
                replicaArgs.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(primary)));
                set.start(replica, replicaArgs);
                set.servers.add(replica);
            }
            awaitTrue(
                    "the replicas are in sync",
                    Duration.ofSeconds(15),
                    () -> set.servers.subList(1, 3).stream()
                            .allMatch(r -> set.cli(r, "INFO", "replication").contains("master_link_status:up")));
            for (int i = 0; i < 3; i++) {
                int port = freePort(false);
                Path conf = set.dir().resolve("sentinel-" + port + ".conf");
                Files.writeString(
                        conf,
                        String.join(
                                "\n",
                                "port " + port,
                                "bind 127.0.0.1",
                                "protected-mode no",
                                "sentinel monitor " + MASTER + " 127.0.0.1 " + primary + " 2",
                                "sentinel down-after-milliseconds " + MASTER + " 1000",
                                "sentinel failover-timeout " + MASTER + " 10000",
                                "sentinel parallel-syncs " + MASTER + " 1",
                                ""));
                set.start(port, List.of(conf.toString(), "--sentinel"));
                set.sentinels.add(port);
            }
            awaitTrue(
                    "every sentinel knows the other two and the replica",
                    Duration.ofSeconds(20),
                    () -> set.sentinels.stream()
                            .allMatch(s -> set.cli(s, "SENTINEL", "MASTER", MASTER)
                                            .contains("num-other-sentinels\n2")
                                    && set.cli(s, "SENTINEL", "MASTER", MASTER).contains("num-slaves\n2")));
        });
    }

    /**
     * {@code spring.data.redis.sentinel.master=}{@link #MASTER} and
     * {@code spring.data.redis.sentinel.nodes=}{@link #nodes()}.
     */
    @Override
    public String[] springProperties() {
        return new String[] {
            "spring.data.redis.sentinel.master=" + MASTER, "spring.data.redis.sentinel.nodes=" + nodes()
        };
    }

    /** {@code 127.0.0.1:s1,127.0.0.1:s2,127.0.0.1:s3}. */
    public String nodes() {
        return sentinels.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    /** The port of the current primary, as the sentinels report it. */
    public int primary() {
        String[] addr = cli(sentinels.get(0), "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)
                .split("\n");
        return Integer.parseInt(addr[addr.length - 1].trim());
    }

    /** Kills the current primary as a crash would (SIGKILL); answers its port. */
    public int crashPrimary() {
        int old = primary();
        kill(old);
        return old;
    }

    /** Waits until the sentinels have promoted a replica in place of {@code old}; answers its port. */
    public int awaitFailoverFrom(int old) {
        awaitTrue("the sentinels promote a replica", Duration.ofSeconds(30), () -> {
            int now = primary();
            return now != old && cli(now, "ROLE").startsWith("master");
        });
        return primary();
    }
}
