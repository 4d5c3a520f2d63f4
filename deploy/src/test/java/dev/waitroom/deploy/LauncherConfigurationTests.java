package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the launcher hands each process, without starting any: loopback addresses, management ports, store
 * credentials only where used, booking's test doubles only when asked for, and the secrets file behind them.
 */
class LauncherConfigurationTests {

    private Path dataDir;

    @BeforeEach
    void createDataDir() throws IOException {
        dataDir = Files.createTempDirectory("waitroom-launcher-config");
    }

    @AfterEach
    void deleteDataDir() throws IOException {
        TestStacks.deleteTree(dataDir);
    }

    @Test
    void testDoublesAreOnOnlyWithDemoOrSimulations() {
        assertThat(Launcher.simulations(List.of("run"))).isFalse();
        assertThat(Launcher.simulations(List.of("run", "--replicas", "2"))).isFalse();
        assertThat(Launcher.simulations(List.of("run", "--demo"))).isTrue();
        assertThat(Launcher.simulations(List.of("run", "--simulations"))).isTrue();
    }

    @Test
    void bookingGetsItsTestDoublesSwitchedExplicitlyAndNobodyElseSeesTheSwitch() throws IOException {
        LocalStack plain = LocalStack.prepare(defaults());
        assertThat(plain.environmentFor("booking-service"))
                .containsEntry("WAITROOM_PAYMENTS_FAKE_ENABLED", "false")
                .containsEntry("WAITROOM_BOOKING_FAULTS_ENABLED", "false");
        LocalStack demo = LocalStack.prepare(defaults().withSimulations(true));
        assertThat(demo.environmentFor("booking-service"))
                .containsEntry("WAITROOM_PAYMENTS_FAKE_ENABLED", "true")
                .containsEntry("WAITROOM_BOOKING_FAULTS_ENABLED", "true")
                .as("the simulator calls back through the gateway's public webhook route, as a provider does")
                .containsEntry("WAITROOM_PAYMENTS_FAKE_WEBHOOKURL", "http://127.0.0.1:8080/webhooks/payments");
        assertThat(plain.environmentFor("booking-service")).doesNotContainKey("WAITROOM_PAYMENTS_FAKE_WEBHOOKURL");
        for (String other : List.of("gateway-service", "queue-service", "admission-coordinator")) {
            assertThat(demo.environmentFor(other))
                    .as(other)
                    .doesNotContainKeys("WAITROOM_PAYMENTS_FAKE_ENABLED", "WAITROOM_BOOKING_FAULTS_ENABLED");
        }
    }

    @Test
    void everyPortListensOnLoopbackUnlessTheGatewaysAddressIsGiven() throws IOException {
        StackConfig config = defaults().withReplicas(2);
        LocalStack stack = LocalStack.prepare(config);
        for (Map.Entry<String, Integer> process : config.servicePorts().entrySet()) {
            Map<String, String> env = stack.environmentFor(process.getKey());
            // the gateway too (issue #28): it trusts forwarding headers from private ranges, so on every interface any
            // host of the LAN could write its own X-Forwarded-For; WAITROOM_GATEWAY_ADDRESS opens it on purpose
            assertThat(env).as(process.getKey()).containsEntry("SERVER_ADDRESS", "127.0.0.1");
            assertThat(env)
                    .as(process.getKey())
                    .containsEntry("SERVER_PORT", String.valueOf(process.getValue()))
                    .containsEntry("MANAGEMENT_SERVER_ADDRESS", "127.0.0.1")
                    .containsEntry(
                            "MANAGEMENT_SERVER_PORT",
                            String.valueOf(process.getValue() + StackConfig.MANAGEMENT_OFFSET));
        }
    }

    @Test
    void eachStoresCredentialsGoOnlyToTheServicesThatUseIt() throws IOException {
        LocalStack stack = LocalStack.prepare(defaults());
        Secrets secrets = stack.secrets();
        for (String service : LocalStack.SERVICES) {
            Map<String, String> env = stack.environmentFor(service);
            boolean postgres = service.equals("admission-coordinator") || service.equals("booking-service");
            boolean redis = !service.equals("booking-service");
            if (postgres) {
                assertThat(env)
                        .as(service)
                        .containsEntry("SPRING_DATASOURCE_USERNAME", "postgres")
                        .containsEntry("SPRING_DATASOURCE_PASSWORD", secrets.postgresPassword());
            } else {
                assertThat(env).as(service).doesNotContainKeys("SPRING_DATASOURCE_PASSWORD", "SPRING_DATASOURCE_URL");
            }
            if (redis) {
                assertThat(env).as(service).containsEntry("SPRING_DATA_REDIS_PASSWORD", secrets.redisPassword());
            } else {
                assertThat(env).as(service).doesNotContainKeys("SPRING_DATA_REDIS_PASSWORD", "SPRING_DATA_REDIS_HOST");
            }
            assertThat(env)
                    .as(service + ": the stores' passwords travel only under the names the services read")
                    .doesNotContainKeys(Secrets.POSTGRES_PASSWORD, Secrets.REDIS_PASSWORD);
        }
        assertThat(secrets.postgresPassword()).isNotEqualTo(secrets.redisPassword());
    }

    @Test
    void anExternalStoreKeepsItsOwnCredentials() throws IOException {
        StackConfig config = defaults();
        config = new StackConfig(
                config.repoRoot(),
                config.dataDir(),
                config.gatewayPort(),
                config.queuePort(),
                config.coordinatorPort(),
                config.bookingPort(),
                config.postgresPort(),
                config.redisPort(),
                new StackConfig.ExternalStores(
                        "db.internal:5432", "waitroom", "pg-secret", "cache.internal", 6379, ""));
        LocalStack stack = LocalStack.prepare(config);
        assertThat(stack.environmentFor("booking-service"))
                .containsEntry("SPRING_DATASOURCE_USERNAME", "waitroom")
                .containsEntry("SPRING_DATASOURCE_PASSWORD", "pg-secret")
                .containsEntry(
                        "SPRING_DATASOURCE_URL", "jdbc:postgresql://db.internal:5432/booking?prepareThreshold=0");
        assertThat(stack.environmentFor("queue-service"))
                .containsEntry("SPRING_DATA_REDIS_HOST", "cache.internal")
                .doesNotContainKey("SPRING_DATA_REDIS_PASSWORD");
        assertThat(config.external().toString()).doesNotContain("pg-secret");
    }

    @Test
    void noTwoPortsOfAStackAreTheSameWhateverTheReplicasAndOffset() {
        for (int replicas = 1; replicas <= StackConfig.MAX_REPLICAS; replicas++) {
            for (int offset : List.of(0, 1, 10, 1000, 20_000)) {
                StackConfig config = defaults().withPortOffset(offset).withReplicas(replicas);
                List<Integer> ports = new ArrayList<>(config.servicePorts().values());
                ports.addAll(config.managementPorts().values());
                ports.addAll(config.proxyPorts().values());
                ports.add(config.postgresPort());
                ports.add(config.redisPort());
                assertThat(new HashSet<>(ports))
                        .as(replicas + " replicas, offset " + offset + ": " + ports)
                        .hasSameSizeAs(ports);
            }
        }
        assertThat(defaults().managementPorts())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "gateway-service", 9080,
                        "queue-service", 9081,
                        "admission-coordinator", 9082,
                        "booking-service", 9083));
    }

    @Test
    void secretsAreGeneratedOnceOwnerOnlyAndAnOlderFileGetsTheCredentialsAndLosesTheSharedToken() throws IOException {
        Path file = dataDir.resolve(Secrets.FILE_NAME);
        Files.writeString(
                file,
                "WAITROOM_SECURITY_OPSTOKEN=kept-from-an-older-launcher\n"
                        + "WAITROOM_SECURITY_INTERNALTOKEN=the-one-every-service-shared\n");
        Secrets first = Secrets.loadOrGenerate(dataDir);
        assertThat(first.opsToken()).isEqualTo("kept-from-an-older-launcher");
        assertThat(first.postgresPassword()).matches("[A-Za-z0-9_-]{40,}");
        assertThat(first.redisPassword()).matches("[A-Za-z0-9_-]{40,}");
        for (ServiceSecrets.Service service : ServiceSecrets.Service.values()) {
            assertThat(ServiceSecrets.isCredential(first.credential(service), service))
                    .as(service + ": wrs_" + service.shortName() + "_ and 43 characters of base64url")
                    .isTrue();
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        Properties stored = new Properties();
        try (var in = Files.newInputStream(file)) {
            stored.load(in);
        }
        assertThat(stored.getProperty(Secrets.POSTGRES_PASSWORD)).isEqualTo(first.postgresPassword());
        assertThat(stored.getProperty(ServiceSecrets.credentialFileVariable(ServiceSecrets.Service.QUEUE)))
                .isEqualTo(first.credential(ServiceSecrets.Service.QUEUE));
        assertThat(stored)
                .as("no service accepts the shared token any more")
                .doesNotContainKey(Secrets.RETIRED_INTERNAL_TOKEN);
        assertThat(first.asDotEnv())
                .as("the services' secrets, without the stores' passwords")
                .doesNotContainKeys(Secrets.POSTGRES_PASSWORD, Secrets.REDIS_PASSWORD, Secrets.RETIRED_INTERNAL_TOKEN)
                .containsKeys("WAITROOM_SERVICECREDENTIAL_GATEWAY", "WAITROOM_SECURITY_ADMISSIONHEADERKEY");
        Secrets again = Secrets.loadOrGenerate(dataDir);
        assertThat(again.postgresPassword()).isEqualTo(first.postgresPassword());
        assertThat(again.redisPassword()).isEqualTo(first.redisPassword());
        assertThat(again.asDotEnv()).isEqualTo(first.asDotEnv());
        assertThat(again.toString())
                .doesNotContain(
                        first.postgresPassword(), first.opsToken(), first.credential(ServiceSecrets.Service.GATEWAY));
        Set<String> values = new HashSet<>(first.asDotEnv().values());
        values.add(first.postgresPassword());
        values.add(first.redisPassword());
        assertThat(values).as("every secret its own").hasSize(first.asDotEnv().size() + 2);
    }

    /**
     * During a rotation the previous credential of a caller stays accepted: its receivers get both hashes, current
     * first; the caller itself sends only the current one.
     */
    @Test
    void aPreviousCredentialKeptInTheFileIsAcceptedBesideTheCurrentOne() throws IOException {
        Secrets generated = Secrets.loadOrGenerate(dataDir);
        String previous = generated.credential(ServiceSecrets.Service.GATEWAY);
        String current = "wrs_gateway_" + "A".repeat(43);
        Path file = dataDir.resolve(Secrets.FILE_NAME);
        String text = Files.readString(file).replace(previous, current) + "WAITROOM_SERVICECREDENTIAL_GATEWAY_PREVIOUS="
                + previous + "\n";
        Files.writeString(file, text);
        Secrets rotating = Secrets.loadOrGenerate(dataDir);
        assertThat(rotating.environmentOf(ServiceSecrets.Service.QUEUE))
                .containsEntry(
                        "WAITROOM_SECURITY_CALLERS_GATEWAY",
                        ServiceSecrets.hash(current) + "," + ServiceSecrets.hash(previous));
        assertThat(rotating.environmentOf(ServiceSecrets.Service.GATEWAY))
                .containsEntry("WAITROOM_SECURITY_SERVICECREDENTIAL", current)
                .doesNotContainValue(previous);
    }

    @Test
    void redisMaxMemoryDefaultsToOneGigabyteAndTakesRedisSizes() {
        assertThat(StackConfig.redisMaxMemory(Map.of())).isEqualTo("1gb");
        assertThat(StackConfig.redisMaxMemory(Map.of("WAITROOM_REDIS_MAXMEMORY", "  ")))
                .as("blank is unset")
                .isEqualTo("1gb");
        assertThat(StackConfig.redisMaxMemory(Map.of("WAITROOM_REDIS_MAXMEMORY", "512mb")))
                .isEqualTo("512mb");
        assertThat(StackConfig.redisMaxMemory(Map.of("WAITROOM_REDIS_MAXMEMORY", " 2GB ")))
                .isEqualTo("2gb");
        assertThat(StackConfig.redisMaxMemory(Map.of("WAITROOM_REDIS_MAXMEMORY", "268435456")))
                .as("bytes without a unit")
                .isEqualTo("268435456");
    }

    @Test
    void redisMaxMemoryRefusesWhatIsNotASizeNamingTheVariable() {
        for (String bad : List.of(
                "0", // Redis reads 0 as no limit at all
                "-1",
                "1.5gb",
                "512 mb",
                "10tb",
                "lots",
                "99999999999999",
                "1gb\nmaxmemory-policy allkeys-lru", // a second line in the configuration file
                "1gb maxmemory-policy allkeys-lru")) {
            org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                    .as(bad)
                    .isThrownBy(() -> StackConfig.redisMaxMemory(Map.of("WAITROOM_REDIS_MAXMEMORY", bad)))
                    .withMessageContaining("WAITROOM_REDIS_MAXMEMORY is a size such as 512mb or 2gb")
                    .withMessageContaining("'" + bad.strip() + "'");
        }
    }

    @Test
    void theEmbeddedRedisRunsWithItsMaxMemoryAndNoEvictionAndNoPasswordOnTheCommandLine() throws IOException {
        RedisBinary binary = RedisBinary.choose(System.getenv());
        Path dir = OwnerOnly.directory(dataDir.resolve("redis"));
        var server = LocalStack.redisServer(binary, 16379, "not-on-the-command-line", "256mb", dir);
        List<String> args = server.buildCommandArgs();
        Path configFile = Path.of(args.get(1));
        try {
            assertThat(Path.of(args.get(0)))
                    .as("the binary runs through the owner-only wrapper")
                    .isEqualTo(dir.resolve(RedisBinary.NAME));
            assertThat(Files.readAllLines(dir.resolve(RedisBinary.NAME)))
                    .contains("umask 077")
                    .anyMatch(line -> line.startsWith("exec '" + binary.executable() + "'"));
            assertThat(args).noneMatch(arg -> arg.contains("not-on-the-command-line"));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(configFile)))
                    .isEqualTo("rw-------");
            assertThat(Files.readAllLines(configFile))
                    .contains(
                            "maxmemory 256mb",
                            "maxmemory-policy noeviction",
                            "requirepass not-on-the-command-line",
                            "appendonly yes",
                            "bind 127.0.0.1",
                            "dir " + dataDir.resolve("redis").toAbsolutePath());
        } finally {
            Files.deleteIfExists(configFile);
        }
    }

    private StackConfig defaults() {
        return StackConfig.defaults(TestStacks.ROOT, dataDir, StackConfig.ExternalStores.none());
    }
}
