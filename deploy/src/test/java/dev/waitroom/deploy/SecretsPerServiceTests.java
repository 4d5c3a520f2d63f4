package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.deploy.ServiceSecrets.Secret;
import dev.waitroom.deploy.ServiceSecrets.Service;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Each service is handed only the secrets of its row of {@link ServiceSecrets} (SECURITY.md, "Which service holds
 * which secret"), and each row holds only secrets that service's own configuration reads (issue #28, finding 4: every
 * service held every secret, so a compromised queue-service could forge shop assertions, payment webhooks and visitor
 * cookies). The launcher's environments and docker-compose's are checked here; the Kubernetes containers' in
 * {@link KubernetesManifestTests}.
 */
class SecretsPerServiceTests {

    private static final Path ROOT =
            Path.of(System.getProperty("waitroom.root", "..")).toAbsolutePath().normalize();

    private Path dataDir;

    @BeforeEach
    void createDataDir() throws IOException {
        dataDir = Files.createTempDirectory("waitroom-secrets-per-service");
    }

    @AfterEach
    void deleteDataDir() throws IOException {
        TestStacks.deleteTree(dataDir);
    }

    @Test
    void everySecretOfARowIsOneThatServicesOwnConfigurationReads() {
        ServiceSecrets.HELD.forEach((service, secrets) -> {
            ModuleConfiguration configuration = ModuleConfiguration.of(ROOT, service.module());
            for (Secret secret : secrets) {
                assertThat(configuration.reads(secret.property()))
                        .as(service.module() + " reads " + secret.property() + " (" + secret.variable() + ")")
                        .isTrue();
            }
        });
    }

    @Test
    void aSecretOfOneServicesRowIsReadByNoOtherService() {
        for (Secret secret : Secret.values()) {
            List<Service> holders = ServiceSecrets.HELD.entrySet().stream()
                    .filter(e -> e.getValue().contains(secret))
                    .map(Map.Entry::getKey)
                    .toList();
            assertThat(holders).as(secret + " is held by someone").isNotEmpty();
            if (holders.size() == 1) {
                for (Service other : Service.values()) {
                    if (!holders.contains(other)) {
                        assertThat(ModuleConfiguration.of(ROOT, other.module()).reads(secret.property()))
                                .as(other.module() + " must not read " + secret.property() + ", which only "
                                        + holders.get(0).module() + " holds")
                                .isFalse();
                    }
                }
            }
        }
        assertThat(ServiceSecrets.HELD.values().stream().filter(s -> s.contains(Secret.KEY_ENCRYPTION_KEY)))
                .as("only the coordinator opens the sealed signing keys")
                .hasSize(1);
    }

    /**
     * The process environments of a single stack, a stack of replicas and one of regions: each gets exactly the
     * secrets of its row (by any variable whose name says it is a secret), its own credential, and the hashes of
     * exactly the callers that call it, computed from those callers' own credentials.
     */
    @Test
    void theLauncherHandsEachProcessOnlyTheSecretsOfItsRow() throws IOException {
        StackConfig single = TestStacks.config(dataDir, TestPorts.free(6), StackConfig.ExternalStores.none());
        for (StackConfig config : List.of(single, single.withReplicas(2), TwoRegions.config(dataDir, false))) {
            LocalStack stack = LocalStack.prepare(config);
            Map<String, Map<String, String>> envs = new LinkedHashMap<>();
            config.servicePorts().keySet().forEach(process -> envs.put(process, stack.environmentFor(process)));
            assertRowsHeld(envs);
            Map<Service, String> credentials = new HashMap<>();
            envs.forEach((process, env) -> {
                Service service = Service.ofModule(StackConfig.serviceOf(process));
                String credential = env.get(Secret.SERVICE_CREDENTIAL.variable());
                assertThat(ServiceSecrets.isCredential(credential, service))
                        .as(process + " has a credential of its own kind, wrs_" + service.shortName() + "_…")
                        .isTrue();
                assertThat(credentials.putIfAbsent(service, credential))
                        .as("every instance of a service is the same caller")
                        .isIn(null, credential);
            });
            assertThat(Set.copyOf(credentials.values()))
                    .as("every service its own credential")
                    .hasSize(4);
            envs.forEach((process, env) -> {
                Service receiver = Service.ofModule(StackConfig.serviceOf(process));
                for (Service caller : ServiceSecrets.CALLERS.get(receiver)) {
                    assertThat(env.get(ServiceSecrets.callersVariable(caller).variable()))
                            .as(process + " knows " + caller + " by the hash of its credential")
                            .isEqualTo(ServiceSecrets.hash(credentials.get(caller)));
                }
                Set<String> othersCredentials = credentials.entrySet().stream()
                        .filter(c -> c.getKey() != receiver)
                        .map(Map.Entry::getValue)
                        .collect(Collectors.toSet());
                assertThat(env.values())
                        .as(process + " holds no other service's credential")
                        .doesNotContainAnyElementsOf(othersCredentials);
            });
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void composeGivesEachServiceOnlyTheSecretsOfItsRow() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(200);
        Map<String, Object> compose = new Yaml(options).load(Files.readString(ROOT.resolve("docker-compose.yml")));
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
        Map<String, Map<String, String>> envs = new LinkedHashMap<>();
        for (Service service : Service.values()) {
            Map<String, String> env = new LinkedHashMap<>();
            ((Map<String, Object>) services.get(service.module()).get("environment"))
                    .forEach((k, v) -> env.put(k, String.valueOf(v)));
            envs.put(service.module(), env);
        }
        assertRowsHeld(envs);
        envs.forEach((module, env) -> {
            Service service = Service.ofModule(module);
            assertThat(env.get(Secret.SERVICE_CREDENTIAL.variable()))
                    .as(module + " reads its own credential from .env")
                    .startsWith("${" + ServiceSecrets.credentialFileVariable(service) + ":?");
            for (Service caller : ServiceSecrets.CALLERS.get(service)) {
                assertThat(env.get(ServiceSecrets.callersVariable(caller).variable()))
                        .as(module + " reads " + caller + "'s hash from .env")
                        .startsWith("${" + ServiceSecrets.hashFileVariable(caller) + ":?");
            }
        });
    }

    /**
     * deploy/compose-env.sh on a .env of an older version: the shared token goes, each service's credential and its
     * hash come, and every service's environment in docker-compose.yml resolves with it, each receiver holding the
     * hash of exactly its callers' credentials. A credential kept as {@code _PREVIOUS} adds its hash after the current
     * one's.
     */
    @Test
    @SuppressWarnings("unchecked")
    void composeEnvWritesEachCredentialAndTheHashItsReceiversHold() throws Exception {
        Files.createDirectories(dataDir.resolve("deploy"));
        Files.copy(ROOT.resolve("deploy/compose-env.sh"), dataDir.resolve("deploy/compose-env.sh"));
        Path dotEnv = dataDir.resolve(".env");
        Files.writeString(dotEnv, "WAITROOM_SECURITY_INTERNALTOKEN=the-one-every-service-shared\n");
        runComposeEnv();
        Map<String, String> env = readDotEnv(dotEnv);
        assertThat(env).doesNotContainKey(Secrets.RETIRED_INTERNAL_TOKEN);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(dotEnv)))
                .isEqualTo("rw-------");
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(200);
        Map<String, Object> compose = new Yaml(options).load(Files.readString(ROOT.resolve("docker-compose.yml")));
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
        Map<Service, Map<String, String>> resolved = new LinkedHashMap<>();
        for (Service service : Service.values()) {
            Map<String, String> container = new LinkedHashMap<>();
            ((Map<String, Object>) services.get(service.module()).get("environment"))
                    .forEach((k, v) -> container.put(
                            k, ComposeHealthchecks.interpolate(service.module(), String.valueOf(v), env)));
            resolved.put(service, container);
        }
        resolved.forEach((receiver, container) -> {
            String own = container.get(Secret.SERVICE_CREDENTIAL.variable());
            assertThat(ServiceSecrets.isCredential(own, receiver))
                    .as(receiver + ": " + own)
                    .isTrue();
            for (Service caller : ServiceSecrets.CALLERS.get(receiver)) {
                assertThat(container.get(ServiceSecrets.callersVariable(caller).variable()))
                        .as(receiver + " holds the hash of " + caller + "'s credential")
                        .isEqualTo(ServiceSecrets.hash(resolved.get(caller).get(Secret.SERVICE_CREDENTIAL.variable())));
            }
        });
        String gateway = env.get(ServiceSecrets.credentialFileVariable(Service.GATEWAY));
        String next = "wrs_gateway_" + "B".repeat(43);
        Files.writeString(
                dotEnv,
                Files.readString(dotEnv).replace(gateway, next) + "WAITROOM_SERVICECREDENTIAL_GATEWAY_PREVIOUS="
                        + gateway + "\n");
        runComposeEnv();
        assertThat(readDotEnv(dotEnv))
                .as("a rotation: the new credential's hash, then the old one's")
                .containsEntry(
                        ServiceSecrets.hashFileVariable(Service.GATEWAY),
                        ServiceSecrets.hash(next) + "," + ServiceSecrets.hash(gateway));
    }

    private void runComposeEnv() throws Exception {
        Process process = new ProcessBuilder(
                        dev.waitroom.testsupport.TestTools.require("bash").toString(),
                        dataDir.resolve("deploy/compose-env.sh").toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(output).isZero();
    }

    private static Map<String, String> readDotEnv(Path file) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("#")) {
                env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return env;
    }

    /**
     * Every variable of a process that carries a secret is one of its row, and every secret of its row is there: a
     * service given one it does not use (another's credential, the key-encryption key, the webhook secret) fails here.
     */
    static void assertRowsHeld(Map<String, Map<String, String>> envs) {
        envs.forEach((process, env) -> {
            Set<String> row = ServiceSecrets.heldBy(process).stream()
                    .map(Secret::variable)
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> given = env.keySet().stream()
                    .filter(name -> ServiceSecrets.SECRET_NAME.matcher(name).matches())
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(given)
                    .as(process + " is given exactly the secrets of its row")
                    .isEqualTo(row);
        });
    }
}
