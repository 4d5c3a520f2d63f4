package dev.waitroom.deploy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the local stack lives and which ports it takes. External stores are used when their addresses are given.
 *
 * @param repoRoot    the checkout, where each service's built jar is found
 * @param dataDir     Postgres data, Redis append-only file, secrets and logs
 * @param simulations booking's payment simulator and fault injection on ({@code --demo}, {@code --simulations}, the
 *     fault suite); off in a plain run, as in compose and production
 */
record StackConfig(
        Path repoRoot,
        Path dataDir,
        int gatewayPort,
        int queuePort,
        int coordinatorPort,
        int bookingPort,
        int postgresPort,
        int redisPort,
        ExternalStores external,
        Map<String, List<Integer>> instancePorts,
        boolean simulations,
        List<Region> regions) {

    /** The services {@code --replicas N} runs N times; booking stays single (its fault injection is per instance). */
    static final List<String> REPLICATED = List.of("gateway-service", "queue-service", "admission-coordinator");

    static final int MAX_REPLICAS = 5;

    /** Replicas are given per region, so the regions come first. */
    private static final String REPLICAS_BEFORE_REGIONS =
            "the regions of a stack are set before its replicas (withRegions, then withReplicas or withInstances)";

    /**
     * Each process serves health, metrics and info on its own port plus this, on loopback only: 9080 to 9083 for the
     * four services (docs/reference/contracts.md, "Processes, ports and configuration").
     */
    static final int MANAGEMENT_OFFSET = 1000;

    /** {@code --regions N} runs at most this many regions on one box. */
    static final int MAX_REGIONS = 3;

    /**
     * Region k (k = 2, 3) takes the first region's service ports plus this times k - 1 (gateway 8180, queue 8181,
     * coordinator 8182 for the second), clear of the replicas' port + 10 k; its Redis takes the first Redis's port plus
     * k - 1.
     */
    static final int REGION_PORT_STRIDE = 100;

    /** The services each region runs for itself; booking and PostgreSQL are shared by every region. */
    static final List<String> REGIONAL = List.of("gateway-service", "queue-service", "admission-coordinator");

    StackConfig {
        instancePorts = Map.copyOf(instancePorts);
        regions = List.copyOf(regions);
    }

    /**
     * One region of a multi-region stack (docs/operating/regions.md): a gateway, a queue-service and a coordinator of its own,
     * and its own Redis. The first region's ports are the stack's own.
     *
     * @param name the coordinator's {@code WAITROOM_REGION_NAME}, by the contract's one rule ({@link
     *     dev.waitroom.contract.Region})
     */
    record Region(String name, int gatewayPort, int queuePort, int coordinatorPort, int redisPort) {
        Region {
            if (!dev.waitroom.contract.Region.valid(name)) {
                throw new IllegalArgumentException("a region name is 1 to 32 lowercase letters, digits and dashes, not"
                        + " starting or ending with a dash, not '" + name + "'");
            }
        }

        Region shifted(int offset) {
            return new Region(
                    name, gatewayPort + offset, queuePort + offset, coordinatorPort + offset, redisPort + offset);
        }
    }

    StackConfig(
            Path repoRoot,
            Path dataDir,
            int gatewayPort,
            int queuePort,
            int coordinatorPort,
            int bookingPort,
            int postgresPort,
            int redisPort,
            ExternalStores external) {
        this(
                repoRoot,
                dataDir,
                gatewayPort,
                queuePort,
                coordinatorPort,
                bookingPort,
                postgresPort,
                redisPort,
                external,
                Map.of(),
                false,
                List.of());
    }

    /**
     * The same stack with one instance of {@code unit} per given port behind a round-robin proxy on the unit's own
     * port, as a Kubernetes Service would put them: every caller reaches whichever instance is next and alive. A unit
     * is a service of a single-region stack ({@code queue-service}), or a regional service of one region, named as its
     * process ({@code queue-service} in the first region, {@code r2.queue-service} in the second): each region's
     * instances sit behind a proxy of their own, on the region's port for the service. One port is a proxy with one
     * backend: a place for the chaos run's network faults.
     */
    StackConfig withInstances(String unit, List<Integer> ports) {
        if (!unitPort(unit).isPresent() || ports.isEmpty()) {
            throw new IllegalArgumentException("no service " + unit + " or no instance ports");
        }
        Map<String, List<Integer>> instances = new LinkedHashMap<>(instancePorts);
        instances.put(unit, List.copyOf(ports));
        return new StackConfig(
                repoRoot,
                dataDir,
                gatewayPort,
                queuePort,
                coordinatorPort,
                bookingPort,
                postgresPort,
                redisPort,
                external,
                instances,
                simulations,
                regions);
    }

    /** The same stack with booking's payment simulator and fault injection switched on or off. */
    StackConfig withSimulations(boolean on) {
        return new StackConfig(
                repoRoot,
                dataDir,
                gatewayPort,
                queuePort,
                coordinatorPort,
                bookingPort,
                postgresPort,
                redisPort,
                external,
                instancePorts,
                on,
                regions);
    }

    StackConfig withCoordinators(List<Integer> ports) {
        return withInstances("admission-coordinator", ports);
    }

    /**
     * {@code replicas} instances of the gateway, the queue-service and the coordinator, instance k of a service on
     * its port + 10 k (8090 and 8100 for the gateway), the proxy on the service's port. With regions, each region
     * runs that many of its own, from the region's ports (8190 and 8200 for the second region's gateway). 1 changes
     * nothing.
     */
    StackConfig withReplicas(int replicas) {
        if (replicas < 1 || replicas > MAX_REPLICAS) {
            throw new IllegalArgumentException("--replicas must be 1.." + MAX_REPLICAS);
        }
        StackConfig config = this;
        if (replicas > 1) {
            for (String service : REPLICATED) {
                for (String unit : units(service)) {
                    int port = unitPort(unit).orElseThrow();
                    config = config.withInstances(
                            unit,
                            java.util.stream.IntStream.rangeClosed(1, replicas)
                                    .mapToObj(k -> port + 10 * k)
                                    .toList());
                }
            }
        }
        return config;
    }

    /** What a proxy may stand in front of: a service, or with regions each region's process of a regional one. */
    private List<String> units(String service) {
        if (regions.isEmpty() || !REGIONAL.contains(service)) {
            return List.of(service);
        }
        return regions.stream().map(r -> processOf(r, service)).toList();
    }

    /**
     * {@code count} regions on one box ({@code --regions N}): the first on this stack's ports, region k on the service
     * ports plus {@value #REGION_PORT_STRIDE} (k - 1) and the Redis port plus k - 1, named {@code r1} to {@code rN}.
     * 1 changes nothing (no region name: the single-region behaviour). Replicas come after: {@link #withReplicas}.
     */
    StackConfig withRegions(int count) {
        if (count < 1 || count > MAX_REGIONS) {
            throw new IllegalArgumentException("--regions must be 1.." + MAX_REGIONS);
        }
        if (count == 1) {
            return this;
        }
        List<Region> all = new java.util.ArrayList<>();
        for (int k = 1; k <= count; k++) {
            int shift = REGION_PORT_STRIDE * (k - 1);
            all.add(new Region(
                    "r" + k, gatewayPort + shift, queuePort + shift, coordinatorPort + shift, redisPort + k - 1));
        }
        return withRegions(all);
    }

    /**
     * These regions, the first on this stack's own gateway, queue, coordinator and Redis ports (a test gives each
     * region free ports). Every region runs one instance of each of its services until {@link #withInstances} or
     * {@link #withReplicas} says otherwise.
     */
    StackConfig withRegions(List<Region> all) {
        if (all.size() < 2 || all.size() > MAX_REGIONS) {
            throw new IllegalArgumentException("a multi-region stack has 2.." + MAX_REGIONS + " regions");
        }
        if (!instancePorts.isEmpty()) {
            throw new IllegalArgumentException(REPLICAS_BEFORE_REGIONS);
        }
        Region first = all.get(0);
        if (first.gatewayPort() != gatewayPort
                || first.queuePort() != queuePort
                || first.coordinatorPort() != coordinatorPort
                || first.redisPort() != redisPort) {
            throw new IllegalArgumentException("the first region runs on the stack's own ports");
        }
        if (all.stream().map(Region::name).distinct().count() != all.size()) {
            throw new IllegalArgumentException("region names must differ: " + all);
        }
        if (external.redisHost() != null) {
            throw new IllegalArgumentException("--regions starts an embedded Redis per region, each region's own;"
                    + " unset WAITROOM_REDIS_HOSTPORT");
        }
        return new StackConfig(
                repoRoot,
                dataDir,
                gatewayPort,
                queuePort,
                coordinatorPort,
                bookingPort,
                postgresPort,
                redisPort,
                external,
                instancePorts,
                simulations,
                all);
    }

    /** The region a process belongs to; empty for a single-region stack and for booking, which every region shares. */
    java.util.Optional<Region> regionOf(String process) {
        if (regions.isEmpty() || !REGIONAL.contains(serviceOf(process))) {
            return java.util.Optional.empty();
        }
        int dot = process.indexOf('.');
        String name = dot < 0 ? regions.get(0).name() : process.substring(0, dot);
        return regions.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /**
     * The process name of a region's service: the service's own name in the first region (so a single-region stack
     * and region 1 name their processes and logs alike), {@code <region>.<service>} in the others.
     */
    String processOf(Region region, String service) {
        return region.equals(regions.get(0)) ? service : region.name() + "." + service;
    }

    /** Every process of {@code service}: its replicas (each region's, with regions), or itself. */
    List<String> processesOf(String service) {
        return units(service).stream().flatMap(u -> instances(u).stream()).toList();
    }

    /** A region by name. */
    Region region(String name) {
        return regions.stream()
                .filter(r -> r.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no region " + name + " in " + regions));
    }

    /**
     * The process names of a unit's instances ({@link #withInstances}): the unit's name for the first, {@code name-k}
     * for the k-th ({@code r2.queue-service-2}).
     */
    List<String> instances(String unit) {
        int count = Math.max(1, instancePorts.getOrDefault(unit, List.of()).size());
        return java.util.stream.IntStream.rangeClosed(1, count)
                .mapToObj(k -> k == 1 ? unit : unit + "-" + k)
                .toList();
    }

    /** The service a process is an instance of: without its region ({@code r2.}) and instance ({@code -2}) marks. */
    static String serviceOf(String process) {
        return process.replaceFirst("^[^.]*\\.", "").replaceFirst("-\\d+$", "");
    }

    /** The units behind a proxy ({@link #withInstances}), each with the port its proxy listens on. */
    Map<String, Integer> proxyPorts() {
        Map<String, Integer> proxies = new LinkedHashMap<>();
        for (String service : List.of("gateway-service", "queue-service", "admission-coordinator", "booking-service")) {
            for (String unit : units(service)) {
                if (instancePorts.containsKey(unit)) {
                    proxies.put(unit, unitPort(unit).orElseThrow());
                }
            }
        }
        return proxies;
    }

    /** The port a unit's callers use: the service's, or its region's for a regional service. */
    private java.util.Optional<Integer> unitPort(String unit) {
        String service = serviceOf(unit);
        if (!units(service).contains(unit)) {
            return java.util.Optional.empty();
        }
        return regionOf(unit)
                .map(r -> switch (service) {
                    case "gateway-service" -> r.gatewayPort();
                    case "queue-service" -> r.queuePort();
                    default -> r.coordinatorPort();
                })
                .or(() -> servicePort(service));
    }

    private java.util.Optional<Integer> servicePort(String service) {
        return java.util.Optional.ofNullable(
                switch (service) {
                    case "gateway-service" -> gatewayPort;
                    case "queue-service" -> queuePort;
                    case "admission-coordinator" -> coordinatorPort;
                    case "booking-service" -> bookingPort;
                    default -> null;
                });
    }

    /**
     * External stores given by environment variables; null fields mean "start the embedded one" (which then gets a
     * password generated into the data directory's secrets file).
     */
    record ExternalStores(
            String postgresHostPort,
            String postgresUser,
            String postgresPassword,
            String redisHost,
            Integer redisPort,
            String redisPassword) {

        @Override
        public String toString() {
            return "ExternalStores[postgres=" + postgresHostPort + ", redis=" + redisHost + ":" + redisPort + "]";
        }

        static ExternalStores fromEnvironment(Map<String, String> env) {
            String redis = env.get("WAITROOM_REDIS_HOSTPORT");
            String redisHost = null;
            Integer redisPort = null;
            if (redis != null && !redis.isBlank()) {
                int colon = redis.lastIndexOf(':');
                redisHost = redis.substring(0, colon);
                redisPort = Integer.parseInt(redis.substring(colon + 1));
            }
            return new ExternalStores(
                    blankToNull(env.get("WAITROOM_POSTGRES_HOSTPORT")),
                    env.getOrDefault("WAITROOM_POSTGRES_USER", "postgres"),
                    env.getOrDefault("WAITROOM_POSTGRES_PASSWORD", ""),
                    redisHost,
                    redisPort,
                    env.getOrDefault("WAITROOM_REDIS_PASSWORD", ""));
        }

        static ExternalStores none() {
            return new ExternalStores(null, "postgres", "", null, null, "");
        }

        private static String blankToNull(String value) {
            return value == null || value.isBlank() ? null : value;
        }
    }

    /** The embedded Redis's {@code maxmemory} when {@code WAITROOM_REDIS_MAXMEMORY} is not set. */
    static final String DEFAULT_REDIS_MAX_MEMORY = "1gb";

    private static final java.util.regex.Pattern REDIS_MEMORY = java.util.regex.Pattern.compile(
            "[1-9][0-9]{0,12}(?:b|kb|mb|gb)?", java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * The embedded Redis's {@code maxmemory} (Redis's own notation: {@code 512mb}, {@code 2gb}, bytes without a unit):
     * {@code WAITROOM_REDIS_MAXMEMORY}, default {@value #DEFAULT_REDIS_MAX_MEMORY}. It runs with {@code noeviction}, so
     * at the limit Redis refuses writes and the queue answers 503 instead of losing places
     * (docs/design/abuse/join-ceiling-and-redis-memory.md).
     */
    static String redisMaxMemory(Map<String, String> env) {
        String value = env.getOrDefault("WAITROOM_REDIS_MAXMEMORY", "").strip();
        if (value.isEmpty()) {
            return DEFAULT_REDIS_MAX_MEMORY;
        }
        if (!REDIS_MEMORY.matcher(value).matches()) {
            throw new IllegalArgumentException(
                    "WAITROOM_REDIS_MAXMEMORY is a size such as 512mb or 2gb (bytes without a unit), not '" + value
                            + "'");
        }
        return value.toLowerCase(java.util.Locale.ROOT);
    }

    static StackConfig defaults(Path repoRoot, Path dataDir, ExternalStores external) {
        return new StackConfig(repoRoot, dataDir, 8080, 8081, 8082, 8083, 15432, 16379, external);
    }

    /** Every port moved up by {@code offset}, so a second stack (a benchmark beside a dev stack) can run at once. */
    StackConfig withPortOffset(int offset) {
        if (offset < 0 || offset > 20_000) {
            throw new IllegalArgumentException("WAITROOM_PORT_OFFSET must be 0..20000");
        }
        return new StackConfig(
                repoRoot,
                dataDir,
                gatewayPort + offset,
                queuePort + offset,
                coordinatorPort + offset,
                bookingPort + offset,
                postgresPort + offset,
                redisPort + offset,
                external,
                shifted(offset),
                simulations,
                regions.stream().map(r -> r.shifted(offset)).toList());
    }

    private Map<String, List<Integer>> shifted(int offset) {
        Map<String, List<Integer>> shifted = new LinkedHashMap<>();
        instancePorts.forEach((service, ports) ->
                shifted.put(service, ports.stream().map(p -> p + offset).toList()));
        return shifted;
    }

    /** Every process of the stack with the port it listens on; a proxied service's instances have ports of their own. */
    Map<String, Integer> servicePorts() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (String service : List.of("gateway-service", "queue-service", "admission-coordinator", "booking-service")) {
            for (String unit : units(service)) {
                List<Integer> instances = instancePorts.get(unit);
                if (instances == null) {
                    ports.put(unit, unitPort(unit).orElseThrow());
                } else {
                    List<String> names = instances(unit);
                    for (int i = 0; i < names.size(); i++) {
                        ports.put(names.get(i), instances.get(i));
                    }
                }
            }
        }
        return ports;
    }

    /** Every process of the stack with its management port (health, metrics, info): its own port plus 1000. */
    Map<String, Integer> managementPorts() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        servicePorts().forEach((process, port) -> ports.put(process, port + MANAGEMENT_OFFSET));
        return ports;
    }

    Path logs() {
        return dataDir.resolve("logs");
    }
}
