package dev.waitroom.deploy;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where the local stack lives and which ports it takes. External stores are used when their addresses are given.
 *
 * @param repoRoot the checkout, where each service's built jar is found
 * @param dataDir  Postgres data, Redis append-only file, secrets and logs
 */
record StackConfig(Path repoRoot, Path dataDir, int gatewayPort, int queuePort, int coordinatorPort,
                   int bookingPort, int postgresPort, int redisPort, ExternalStores external,
                   java.util.List<Integer> coordinatorInstancePorts) {

    StackConfig(Path repoRoot, Path dataDir, int gatewayPort, int queuePort, int coordinatorPort, int bookingPort,
                int postgresPort, int redisPort, ExternalStores external) {
        this(repoRoot, dataDir, gatewayPort, queuePort, coordinatorPort, bookingPort, postgresPort, redisPort, external,
                java.util.List.of());
    }

    /**
     * The same stack with one coordinator per given port behind a failover proxy on {@code coordinatorPort}, as a
     * Kubernetes Service or a load balancer would put them: callers reach whichever instance is alive.
     */
    StackConfig withCoordinators(java.util.List<Integer> instancePorts) {
        return new StackConfig(repoRoot, dataDir, gatewayPort, queuePort, coordinatorPort, bookingPort, postgresPort,
                redisPort, external, java.util.List.copyOf(instancePorts));
    }

    int coordinatorInstances() {
        return Math.max(1, coordinatorInstancePorts.size());
    }

    /** External stores given by environment variables; null fields mean "start the embedded one". */
    record ExternalStores(String postgresHostPort, String postgresUser, String postgresPassword,
                          String redisHost, Integer redisPort) {

        static ExternalStores fromEnvironment(Map<String, String> env) {
            String redis = env.get("WAITROOM_REDIS_HOSTPORT");
            String redisHost = null;
            Integer redisPort = null;
            if (redis != null && !redis.isBlank()) {
                int colon = redis.lastIndexOf(':');
                redisHost = redis.substring(0, colon);
                redisPort = Integer.parseInt(redis.substring(colon + 1));
            }
            return new ExternalStores(blankToNull(env.get("WAITROOM_POSTGRES_HOSTPORT")),
                    env.getOrDefault("WAITROOM_POSTGRES_USER", "postgres"),
                    env.getOrDefault("WAITROOM_POSTGRES_PASSWORD", ""), redisHost, redisPort);
        }

        static ExternalStores none() {
            return new ExternalStores(null, "postgres", "", null, null);
        }

        private static String blankToNull(String value) {
            return value == null || value.isBlank() ? null : value;
        }
    }

    static StackConfig defaults(Path repoRoot, Path dataDir, ExternalStores external) {
        return new StackConfig(repoRoot, dataDir, 8080, 8081, 8082, 8083, 15432, 16379, external);
    }

    /** Every port moved up by {@code offset}, so a second stack (a benchmark beside a dev stack) can run at once. */
    StackConfig withPortOffset(int offset) {
        if (offset < 0 || offset > 20_000) {
            throw new IllegalArgumentException("WAITROOM_PORT_OFFSET must be 0..20000");
        }
        return new StackConfig(repoRoot, dataDir, gatewayPort + offset, queuePort + offset, coordinatorPort + offset,
                bookingPort + offset, postgresPort + offset, redisPort + offset, external,
                coordinatorInstancePorts.stream().map(p -> p + offset).toList());
    }

    Map<String, Integer> servicePorts() {
        Map<String, Integer> ports = new java.util.LinkedHashMap<>(Map.of("gateway-service", gatewayPort,
                "queue-service", queuePort, "admission-coordinator", coordinatorPort, "booking-service", bookingPort));
        for (int i = 0; i < coordinatorInstancePorts.size(); i++) {
            ports.put(i == 0 ? "admission-coordinator" : "admission-coordinator-" + (i + 1), coordinatorInstancePorts.get(i));
        }
        return ports;
    }

    Path logs() {
        return dataDir.resolve("logs");
    }
}
