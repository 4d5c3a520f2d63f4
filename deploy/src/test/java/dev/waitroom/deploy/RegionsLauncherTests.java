package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ./waitroom run --regions N} without starting anything: which processes each region gets, on which ports,
 * and what each process is told (its region's name, its region's queue-service, coordinator and Redis; the shared
 * PostgreSQL and booking), with replicas in each region behind the region's own proxies, and the combinations the
 * launcher refuses.
 */
class RegionsLauncherTests {

    private Path dataDir;

    @BeforeEach
    void createDataDir() throws IOException {
        dataDir = Files.createTempDirectory("waitroom-regions-config");
    }

    @AfterEach
    void deleteDataDir() throws IOException {
        TestStacks.deleteTree(dataDir);
    }

    private StackConfig defaults() {
        return StackConfig.defaults(TestStacks.ROOT, dataDir, StackConfig.ExternalStores.none());
    }

    @Test
    void theRegionsOptionIsReadInBothSpellingsAndDefaultsToOne() {
        assertThat(Launcher.regions(List.of("run"))).isEqualTo(1);
        assertThat(Launcher.regions(List.of("run", "--regions", "2"))).isEqualTo(2);
        assertThat(Launcher.regions(List.of("run", "--demo", "--regions=3"))).isEqualTo(3);
        assertThat(Launcher.replicas(List.of("run", "--regions", "2"))).isEqualTo(1);
        assertThatThrownBy(() -> Launcher.regions(List.of("run", "--regions")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--regions needs a number");
        assertThatThrownBy(() -> Launcher.regions(List.of("run", "--regions", "two")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneRegionIsTodaysStackWithoutARegionName() throws IOException {
        StackConfig config = defaults().withRegions(1);
        assertThat(config).isEqualTo(defaults());
        assertThat(config.regions()).isEmpty();
        LocalStack stack = LocalStack.prepare(config);
        for (String process : config.servicePorts().keySet()) {
            assertThat(stack.environmentFor(process)).as(process).doesNotContainKey("WAITROOM_REGION_NAME");
        }
    }

    @Test
    void regionOneKeepsTodaysPortsAndEachFurtherRegionTakesItsOwn() {
        StackConfig config = defaults().withRegions(3);
        assertThat(config.regions())
                .containsExactly(
                        new StackConfig.Region("r1", 8080, 8081, 8082, 16379),
                        new StackConfig.Region("r2", 8180, 8181, 8182, 16380),
                        new StackConfig.Region("r3", 8280, 8281, 8282, 16381));
        assertThat(config.servicePorts())
                .containsExactly(
                        Map.entry("gateway-service", 8080),
                        Map.entry("r2.gateway-service", 8180),
                        Map.entry("r3.gateway-service", 8280),
                        Map.entry("queue-service", 8081),
                        Map.entry("r2.queue-service", 8181),
                        Map.entry("r3.queue-service", 8281),
                        Map.entry("admission-coordinator", 8082),
                        Map.entry("r2.admission-coordinator", 8182),
                        Map.entry("r3.admission-coordinator", 8282),
                        Map.entry("booking-service", 8083));
        assertThat(config.processesOf("admission-coordinator"))
                .containsExactly("admission-coordinator", "r2.admission-coordinator", "r3.admission-coordinator");
        assertThat(config.processesOf("booking-service")).containsExactly("booking-service");
        assertThat(StackConfig.serviceOf("r2.admission-coordinator")).isEqualTo("admission-coordinator");
        assertThat(StackConfig.serviceOf("admission-coordinator-2")).isEqualTo("admission-coordinator");
        assertThat(config.regionOf("r3.gateway-service"))
                .map(StackConfig.Region::name)
                .hasValue("r3");
        assertThat(config.regionOf("queue-service"))
                .map(StackConfig.Region::name)
                .hasValue("r1");
        assertThat(config.regionOf("booking-service")).as("booking is shared").isEmpty();
        assertThat(config.proxyPorts())
                .as("no proxies: one instance per region")
                .isEmpty();
    }

    @Test
    void noTwoProcessesOrStoresOfThreeRegionsShareAPort() {
        StackConfig config = defaults().withRegions(3);
        List<Integer> ports = new ArrayList<>(config.servicePorts().values());
        ports.addAll(config.managementPorts().values());
        ports.add(config.postgresPort());
        config.regions().forEach(r -> ports.add(r.redisPort()));
        Set<Integer> distinct = new HashSet<>(ports);
        assertThat(distinct).hasSameSizeAs(ports);
        assertThat(config.managementPorts())
                .containsEntry("r2.gateway-service", 9180)
                .containsEntry("r2.admission-coordinator", 9182);
    }

    @Test
    void eachRegionsProcessesTalkToTheirOwnRegionAndShareLedgerAndBooking() throws IOException {
        StackConfig config = defaults().withRegions(2);
        LocalStack stack = LocalStack.prepare(config);
        Map<String, String> gateway2 = stack.environmentFor("r2.gateway-service");
        assertThat(gateway2)
                .containsEntry("SERVER_PORT", "8180")
                .containsEntry("MANAGEMENT_SERVER_PORT", "9180")
                .containsEntry("WAITROOM_SERVICES_QUEUEURL", "http://127.0.0.1:8181")
                .containsEntry("WAITROOM_SERVICES_COORDINATORURL", "http://127.0.0.1:8182")
                .containsEntry("WAITROOM_SERVICES_BOOKINGURL", "http://127.0.0.1:8083")
                .containsEntry("SPRING_DATA_REDIS_PORT", "16380")
                .doesNotContainKey("WAITROOM_REGION_NAME");
        Map<String, String> queue2 = stack.environmentFor("r2.queue-service");
        assertThat(queue2)
                .containsEntry("SERVER_PORT", "8181")
                .containsEntry("SERVER_ADDRESS", "127.0.0.1")
                .containsEntry("SPRING_DATA_REDIS_PORT", "16380")
                .containsEntry("WAITROOM_SERVICES_COORDINATORURL", "http://127.0.0.1:8182");
        Map<String, String> coordinator1 = stack.environmentFor("admission-coordinator");
        Map<String, String> coordinator2 = stack.environmentFor("r2.admission-coordinator");
        assertThat(coordinator1)
                .containsEntry("WAITROOM_REGION_NAME", "r1")
                .containsEntry("SPRING_DATA_REDIS_PORT", "16379")
                .containsEntry("WAITROOM_SERVICES_QUEUEURL", "http://127.0.0.1:8081");
        assertThat(coordinator2)
                .containsEntry("WAITROOM_REGION_NAME", "r2")
                .containsEntry("SERVER_PORT", "8182")
                .as("its own Redis: the live-session registry its region's gateway reads")
                .containsEntry("SPRING_DATA_REDIS_PORT", "16380")
                .containsEntry("WAITROOM_SERVICES_QUEUEURL", "http://127.0.0.1:8181")
                .as("one ledger")
                .containsEntry("SPRING_DATASOURCE_URL", coordinator1.get("SPRING_DATASOURCE_URL"));
        assertThat(stack.environmentFor("booking-service"))
                .as("booking reports its health to region r1's coordinator")
                .containsEntry("WAITROOM_SERVICES_COORDINATORURL", "http://127.0.0.1:8082")
                .doesNotContainKeys("WAITROOM_REGION_NAME", "SPRING_DATA_REDIS_PORT");
        assertThat(gateway2.get("WAITROOM_SECURITY_OPSTOKEN"))
                .as("one set of secrets: a visitor cookie or ops token is valid in every region")
                .isEqualTo(stack.environmentFor("gateway-service").get("WAITROOM_SECURITY_OPSTOKEN"));
        assertThat(stack.gatewayUrl("r2")).isEqualTo("http://127.0.0.1:8180");
    }

    @Test
    void aPortOffsetMovesEveryRegion() {
        StackConfig config = defaults().withPortOffset(1000).withRegions(2);
        assertThat(config.regions().get(1)).isEqualTo(new StackConfig.Region("r2", 9180, 9181, 9182, 17380));
        assertThat(defaults().withRegions(2).withPortOffset(1000).regions()).isEqualTo(config.regions());
    }

    @Test
    void twoRegionsWithTwoReplicasRunTwoOfEachRegionalServicePerRegionBehindTheRegionsOwnProxies() throws IOException {
        StackConfig config = defaults().withRegions(2).withReplicas(2);
        assertThat(config.servicePorts())
                .containsExactly(
                        Map.entry("gateway-service", 8090),
                        Map.entry("gateway-service-2", 8100),
                        Map.entry("r2.gateway-service", 8190),
                        Map.entry("r2.gateway-service-2", 8200),
                        Map.entry("queue-service", 8091),
                        Map.entry("queue-service-2", 8101),
                        Map.entry("r2.queue-service", 8191),
                        Map.entry("r2.queue-service-2", 8201),
                        Map.entry("admission-coordinator", 8092),
                        Map.entry("admission-coordinator-2", 8102),
                        Map.entry("r2.admission-coordinator", 8192),
                        Map.entry("r2.admission-coordinator-2", 8202),
                        Map.entry("booking-service", 8083));
        assertThat(config.proxyPorts())
                .as("each region's proxy on the region's port for the service: what its callers and visitors use")
                .containsExactly(
                        Map.entry("gateway-service", 8080),
                        Map.entry("r2.gateway-service", 8180),
                        Map.entry("queue-service", 8081),
                        Map.entry("r2.queue-service", 8181),
                        Map.entry("admission-coordinator", 8082),
                        Map.entry("r2.admission-coordinator", 8182));
        assertThat(config.instancePorts()).containsEntry("r2.queue-service", List.of(8191, 8201));
        assertThat(config.processesOf("admission-coordinator"))
                .containsExactly(
                        "admission-coordinator",
                        "admission-coordinator-2",
                        "r2.admission-coordinator",
                        "r2.admission-coordinator-2");
        assertThat(config.regionOf("r2.queue-service-2"))
                .map(StackConfig.Region::name)
                .hasValue("r2");
        assertThat(config.regionOf("gateway-service-2"))
                .map(StackConfig.Region::name)
                .hasValue("r1");
        assertThat(StackConfig.serviceOf("r2.queue-service-2")).isEqualTo("queue-service");

        LocalStack stack = LocalStack.prepare(config);
        assertThat(stack.environmentFor("r2.gateway-service-2"))
                .containsEntry("SERVER_PORT", "8200")
                .containsEntry("MANAGEMENT_SERVER_PORT", "9200")
                .as("its region's proxies, never an instance directly")
                .containsEntry("WAITROOM_SERVICES_QUEUEURL", "http://127.0.0.1:8181")
                .containsEntry("WAITROOM_SERVICES_COORDINATORURL", "http://127.0.0.1:8182")
                .containsEntry("SPRING_DATA_REDIS_PORT", "16380");
        assertThat(stack.environmentFor("r2.admission-coordinator-2"))
                .containsEntry("WAITROOM_REGION_NAME", "r2")
                .containsEntry("WAITROOM_SERVICES_QUEUEURL", "http://127.0.0.1:8181")
                .containsEntry("SPRING_DATA_REDIS_PORT", "16380");
        assertThat(stack.environmentFor("admission-coordinator-2"))
                .containsEntry("WAITROOM_REGION_NAME", "r1")
                .containsEntry("WAITROOM_SERVICES_QUEUEURL", "http://127.0.0.1:8081");
        assertThat(stack.environmentFor("booking-service"))
                .containsEntry("WAITROOM_SERVICES_COORDINATORURL", "http://127.0.0.1:8082")
                .containsEntry(
                        "WAITROOM_VERIFIER_JWKSURL", "http://127.0.0.1:8080/.well-known/waitroom-admission-keys");
        assertThat(stack.gatewayUrl("r2")).isEqualTo("http://127.0.0.1:8180");
        assertThat(Launcher.regionTable(config).get(2)).contains("r2", "http://127.0.0.1:8180", "per replica");
    }

    @Test
    void noTwoPortsOfAnyRegionsAndReplicasShapeAreTheSame() {
        for (int regions = 1; regions <= StackConfig.MAX_REGIONS; regions++) {
            for (int replicas = 1; replicas <= StackConfig.MAX_REPLICAS; replicas++) {
                for (int offset : List.of(0, 1000)) {
                    StackConfig config = defaults()
                            .withPortOffset(offset)
                            .withRegions(regions)
                            .withReplicas(replicas);
                    List<Integer> ports = new ArrayList<>(config.servicePorts().values());
                    ports.addAll(config.managementPorts().values());
                    ports.addAll(config.proxyPorts().values());
                    ports.add(config.postgresPort());
                    config.regions().forEach(r -> ports.add(r.redisPort()));
                    if (config.regions().isEmpty()) {
                        ports.add(config.redisPort());
                    }
                    assertThat(new HashSet<>(ports))
                            .as(regions + " regions, " + replicas + " replicas, offset " + offset + ": " + ports)
                            .hasSameSizeAs(ports);
                    assertThat(config.servicePorts()).hasSize(regions * 3 * replicas + 1);
                }
            }
        }
    }

    @Test
    void aRegionsServiceMayRunBehindAProxyWithOneInstanceAndReplicasComeAfterTheRegions() {
        StackConfig config = defaults()
                .withRegions(2)
                .withInstances("r2.queue-service", List.of(8191))
                .withInstances("queue-service", List.of(8091));
        assertThat(config.proxyPorts())
                .containsExactly(Map.entry("queue-service", 8081), Map.entry("r2.queue-service", 8181));
        assertThat(config.servicePorts())
                .containsEntry("r2.queue-service", 8191)
                .containsEntry("r2.admission-coordinator", 8182);
        assertThatThrownBy(() -> defaults().withRegions(2).withInstances("r3.queue-service", List.of(8291)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults().withRegions(2).withInstances("r2.booking-service", List.of(8283)))
                .as("booking is shared, not a region's")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults().withReplicas(2).withRegions(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("regions of a stack are set before its replicas");
        assertThat(defaults().withReplicas(1).withRegions(2).regions()).hasSize(2);
    }

    @Test
    void outOfRangeCountsAnExternalRedisAndBadNamesAreRefused() {
        assertThatThrownBy(() -> defaults().withRegions(4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--regions must be 1..3");
        assertThatThrownBy(() -> defaults().withRegions(0)).isInstanceOf(IllegalArgumentException.class);
        StackConfig external = new StackConfig(
                TestStacks.ROOT,
                dataDir,
                8080,
                8081,
                8082,
                8083,
                15432,
                16379,
                new StackConfig.ExternalStores(null, "postgres", "", "cache.internal", 6379, ""));
        assertThatThrownBy(() -> external.withRegions(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("WAITROOM_REDIS_HOSTPORT");
        assertThatThrownBy(() -> new StackConfig.Region("Region_2", 1, 2, 3, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StackConfig.Region("r".repeat(33), 1, 2, 3, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults()
                        .withRegions(List.of(
                                new StackConfig.Region("r1", 8080, 8081, 8082, 16379),
                                new StackConfig.Region("r1", 8180, 8181, 8182, 16380))))
                .hasMessageContaining("must differ");
        assertThatThrownBy(() -> defaults()
                        .withRegions(List.of(
                                new StackConfig.Region("r1", 8085, 8081, 8082, 16379),
                                new StackConfig.Region("r2", 8180, 8181, 8182, 16380))))
                .hasMessageContaining("the stack's own ports");
    }

    @Test
    void theBannerTableNamesEachRegionsGatewayPortsAndWhatIsShared() {
        List<String> table = Launcher.regionTable(defaults().withRegions(2));
        assertThat(table).hasSize(4);
        assertThat(table.get(1)).contains("r1", "http://127.0.0.1:8080", "8081", "8082", "16379");
        assertThat(table.get(2)).contains("r2", "http://127.0.0.1:8180", "8181", "8182", "16380", "r2.<service>.log");
        assertThat(table.get(3)).contains("PostgreSQL 15432", "booking-service 8083", "region r1's coordinator");
    }

    @Test
    void theProcessListSurvivesTheRoundTripThroughItsFile() throws IOException {
        List<StackProcesses.Entry> entries = List.of(
                new StackProcesses.Entry("service", "r2.admission-coordinator", "r2", 4242, 8182, 9182),
                new StackProcesses.Entry("service", "booking-service", null, 4243, 8083, 9083),
                new StackProcesses.Entry("store", "redis-r2", "r2", -1, 16380, -1),
                new StackProcesses.Entry("proxy", "gateway-service", null, -1, 8080, -1));
        StackProcesses.write(dataDir, entries);
        assertThat(StackProcesses.read(dataDir)).isEqualTo(entries);
        assertThat(StackProcesses.live(entries.get(0), dataDir))
                .as("a pid that is not a service jar from this data directory is never taken for one")
                .isEmpty();
        StackProcesses.Entry self = new StackProcesses.Entry(
                "service", "gateway-service", null, ProcessHandle.current().pid(), 8080, 9080);
        assertThat(StackProcesses.live(self, dataDir)).isEmpty();
    }
}
