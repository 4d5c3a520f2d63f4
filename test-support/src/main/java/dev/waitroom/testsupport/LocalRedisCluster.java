package dev.waitroom.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A real Redis Cluster of three masters (no replicas) on loopback, created with {@code redis-cli --cluster create}.
 * Point a service at it with {@code spring.data.redis.cluster.nodes=}{@link #nodes()}.
 */
public final class LocalRedisCluster extends LocalRedis {

    private final List<Integer> ports = new ArrayList<>();

    private LocalRedisCluster() {
        super("redis-cluster");
    }

    public static LocalRedisCluster start() {
        return started(new LocalRedisCluster(), cluster -> {
            for (int i = 0; i < 3; i++) {
                int port = freePort(true);
                List<String> args = cluster.serverArgs(port);
                args.addAll(List.of(
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        "nodes-" + port + ".conf",
                        "--cluster-node-timeout",
                        "2000"));
                cluster.start(port, args);
                cluster.ports.add(port);
            }
            List<String> create = new ArrayList<>(List.of("--cluster", "create"));
            cluster.ports.forEach(p -> create.add("127.0.0.1:" + p));
            create.add("--cluster-yes");
            cluster.cli(cluster.ports.get(0), create.toArray(String[]::new));
            awaitTrue(
                    "the cluster is ok on every node",
                    Duration.ofSeconds(20),
                    () -> cluster.ports.stream()
                            .allMatch(p -> cluster.cli(p, "CLUSTER", "INFO").contains("cluster_state:ok")));
        });
    }

    /** {@code spring.data.redis.cluster.nodes=}{@link #nodes()}. */
    @Override
    public String[] springProperties() {
        return new String[] {"spring.data.redis.cluster.nodes=" + nodes()};
    }

    /** {@code 127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3}. */
    public String nodes() {
        return ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    public List<Integer> ports() {
        return List.copyOf(ports);
    }

    /** The port of the master that serves this key's slot. */
    public int masterOf(String key) {
        long slot = Long.parseLong(cli(ports.get(0), "CLUSTER", "KEYSLOT", key));
        for (String node : cli(ports.get(0), "CLUSTER", "NODES").lines().toList()) {
            String[] f = node.split(" ");
            if (f.length < 9 || !f[2].contains("master")) {
                continue;
            }
            String address = f[1].split("@")[0];
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            for (int i = 8; i < f.length; i++) {
                if (f[i].startsWith("[")) {
                    continue;
                }
                String[] range = f[i].split("-");
                long from = Long.parseLong(range[0]);
                long to = range.length > 1 ? Long.parseLong(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return port;
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }
}
