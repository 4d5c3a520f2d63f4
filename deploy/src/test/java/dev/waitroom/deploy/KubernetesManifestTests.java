package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBackend;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/k8s, rendered offline by {@code kubectl kustomize} for each overlay and read into the fabric8 Kubernetes
 * model strictly (a field the model does not know fails, where the model would otherwise keep it aside), then held to
 * what an operator relies on: probes on the management port, resources, locked-down containers, disruption budgets,
 * autoscalers, one public door, network policies, no committed secret.
 */
class KubernetesManifestTests {

    private static final Path ROOT =
            Path.of(System.getProperty("waitroom.root", "..")).toAbsolutePath().normalize();
    private static final Path K8S = ROOT.resolve("deploy/k8s");
    private static final String GATEWAY = "gateway-service";
    private static final String QUEUE = "queue-service";
    private static final String COORDINATOR = "admission-coordinator";
    private static final String BOOKING = "booking-service";
    private static final Set<String> SERVICES = Set.of(GATEWAY, QUEUE, COORDINATOR, BOOKING);
    private static final int MANAGEMENT_PORT = 9080;
    private static final Map<String, Class<? extends HasMetadata>> MODEL = Map.of(
            "v1/ConfigMap", ConfigMap.class,
            "v1/Service", Service.class,
            "apps/v1/Deployment", Deployment.class,
            "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
            "autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class,
            "networking.k8s.io/v1/Ingress", Ingress.class,
            "networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class);
    private static final ObjectMapper STRICT = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .setAnnotationIntrospector(new JacksonAnnotationIntrospector() {
                // The model's @JsonAnySetter would file an unknown field under additionalProperties; refuse it instead.
                @Override
                public Boolean hasAnySetter(Annotated annotated) {
                    return Boolean.FALSE;
                }
            });
    private static final Map<String, List<HasMetadata>> RENDERED = new LinkedHashMap<>();

    @BeforeAll
    static void render() throws Exception {
        String kubectl = dev.waitroom.testsupport.TestTools.require("kubectl").toString();
        for (String overlay : List.of("dev", "production")) {
            RENDERED.put(
                    overlay, parse(kustomize(kubectl, K8S.resolve("overlays").resolve(overlay))));
        }
    }

    @Test
    void everyOverlayRendersEveryKindOfObjectTheServicesNeed() {
        RENDERED.forEach((overlay, objects) -> {
            Map<String, Long> kinds =
                    objects.stream().collect(Collectors.groupingBy(HasMetadata::getKind, Collectors.counting()));
            assertThat(kinds)
                    .as(overlay)
                    .containsEntry("Deployment", 4L)
                    .containsEntry("Service", 4L)
                    .containsEntry("PodDisruptionBudget", 4L)
                    .containsEntry("HorizontalPodAutoscaler", 2L)
                    .containsEntry("Ingress", 1L)
                    .containsKeys("ConfigMap", "NetworkPolicy");
            assertThat(objects)
                    .as(overlay + ": one namespace for everything")
                    .extracting(o -> o.getMetadata().getNamespace())
                    .containsOnly(overlay.equals("dev") ? "waitroom-dev" : "waitroom");
        });
    }

    @Test
    void aFieldTheModelDoesNotKnowFailsTheParse() {
        Map<String, Object> typo = new Yaml().load("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: x}
                spec:
                  replica: 2
                  selector: {matchLabels: {a: b}}
                  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: x, image: x}]}}
                """);
        assertThatThrownBy(() -> STRICT.convertValue(typo, Deployment.class)).hasMessageContaining("replica");
        Map<String, Object> unknownKind = Map.of("apiVersion", "v1", "kind", "Secret", "metadata", Map.of("name", "s"));
        assertThatThrownBy(() -> parse(new Yaml().dump(unknownKind))).hasMessageContaining("v1/Secret");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "production"})
    void everyContainerIsProbedOnTheManagementPortHasResourcesAndRunsLockedDown(String overlay) {
        Map<String, Deployment> deployments = byName(overlay, Deployment.class);
        assertThat(deployments.keySet()).isEqualTo(SERVICES);
        Map<String, String> services = configMap(overlay, "waitroom-services").getData();
        assertThat(services).containsEntry("MANAGEMENT_SERVER_PORT", String.valueOf(MANAGEMENT_PORT));
        deployments.forEach((name, deployment) -> {
            PodSpec pod = deployment.getSpec().getTemplate().getSpec();
            String what = overlay + " " + name;
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(what).isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).as(what).isPositive();
            assertThat(pod.getAutomountServiceAccountToken())
                    .as(what + ": no API access needed")
                    .isFalse();
            assertThat(pod.getTopologySpreadConstraints())
                    .as(what)
                    .extracting(c -> c.getTopologyKey())
                    .contains("topology.kubernetes.io/zone", "kubernetes.io/hostname");
            pod.getTopologySpreadConstraints()
                    .forEach(c -> assertThat(c.getLabelSelector().getMatchLabels())
                            .as(what)
                            .isEqualTo(deployment.getSpec().getSelector().getMatchLabels()));
            assertThat(pod.getContainers()).as(what).hasSize(1);
            assertThat(pod.getInitContainers()).as(what).isEmpty();
            for (Container container : pod.getContainers()) {
                assertThat(container.getPorts()).as(what).anySatisfy(p -> {
                    assertThat(p.getName()).isEqualTo("management");
                    assertThat(p.getContainerPort()).isEqualTo(MANAGEMENT_PORT);
                });
                assertProbe(what + " startup", container, container.getStartupProbe(), "/actuator/health/liveness");
                assertProbe(what + " liveness", container, container.getLivenessProbe(), "/actuator/health/liveness");
                assertProbe(
                        what + " readiness", container, container.getReadinessProbe(), "/actuator/health/readiness");
                for (Map<String, Quantity> amounts : List.of(
                        container.getResources().getRequests(),
                        container.getResources().getLimits())) {
                    assertThat(amounts).as(what + " resources").containsKeys("cpu", "memory");
                }
                assertThat(Quantity.getAmountInBytes(
                                container.getResources().getRequests().get("memory")))
                        .as(what + ": memory request equals the limit (the JVM sizes its heap from the limit)")
                        .isEqualTo(Quantity.getAmountInBytes(
                                container.getResources().getLimits().get("memory")));
                var security = container.getSecurityContext();
                assertThat(security.getRunAsNonRoot()).as(what).isTrue();
                assertThat(security.getReadOnlyRootFilesystem()).as(what).isTrue();
                assertThat(security.getAllowPrivilegeEscalation()).as(what).isFalse();
                assertThat(security.getCapabilities().getDrop()).as(what).containsExactly("ALL");
                assertThat(security.getCapabilities().getAdd()).as(what).isEmpty();
                assertThat(container.getVolumeMounts())
                        .as(what + ": /tmp is the one writable path")
                        .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
                String tmp = container.getVolumeMounts().stream()
                        .filter(m -> m.getMountPath().equals("/tmp"))
                        .findFirst()
                        .orElseThrow()
                        .getName();
                assertThat(pod.getVolumes()).as(what).anySatisfy(v -> {
                    assertThat(v.getName()).isEqualTo(tmp);
                    assertThat(v.getEmptyDir()).isNotNull();
                });
                assertThat(env(container))
                        .as(what)
                        .containsEntry("SERVER_PORT", String.valueOf(port(container, "http")));
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "production"})
    void everyServiceHasADisruptionBudgetAndOnlyGatewayAndQueueAnAutoscaler(String overlay) {
        Map<String, Deployment> deployments = byName(overlay, Deployment.class);
        Map<String, PodDisruptionBudget> budgets = byName(overlay, PodDisruptionBudget.class);
        assertThat(budgets.keySet()).isEqualTo(SERVICES);
        budgets.forEach((name, budget) -> {
            assertThat(budget.getSpec().getSelector().getMatchLabels())
                    .as(name)
                    .isEqualTo(deployments.get(name).getSpec().getSelector().getMatchLabels());
            assertThat(budget.getSpec().getMaxUnavailable() != null
                            || budget.getSpec().getMinAvailable() != null)
                    .isTrue();
        });
        Map<String, HorizontalPodAutoscaler> autoscalers = byName(overlay, HorizontalPodAutoscaler.class);
        assertThat(autoscalers.keySet()).containsExactlyInAnyOrder(GATEWAY, QUEUE);
        autoscalers.forEach((name, hpa) -> {
            assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
            assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo(name);
            assertThat(hpa.getSpec().getMinReplicas())
                    .isPositive()
                    .isLessThanOrEqualTo(hpa.getSpec().getMaxReplicas());
            assertThat(hpa.getSpec().getMetrics()).isNotEmpty();
            assertThat(deployments.get(name).getSpec().getReplicas())
                    .as(name + ": the autoscaler owns the count")
                    .isNull();
        });
        if (overlay.equals("production")) {
            assertThat(autoscalers.values())
                    .allSatisfy(
                            hpa -> assertThat(hpa.getSpec().getMinReplicas()).isGreaterThanOrEqualTo(2));
            assertThat(deployments.get(COORDINATOR).getSpec().getReplicas())
                    .as("a standby coordinator")
                    .isGreaterThanOrEqualTo(2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "production"})
    void onlyTheGatewaysPublicPortIsExposedAndOnlyThroughTheIngress(String overlay) {
        Map<String, Service> services = byName(overlay, Service.class);
        assertThat(services.keySet()).isEqualTo(SERVICES);
        Map<String, Deployment> deployments = byName(overlay, Deployment.class);
        services.forEach((name, service) -> {
            assertThat(service.getSpec().getType()).as(name).isEqualTo("ClusterIP");
            assertThat(service.getSpec().getSelector())
                    .as(name)
                    .isEqualTo(deployments.get(name).getSpec().getSelector().getMatchLabels());
            Container container = deployments
                    .get(name)
                    .getSpec()
                    .getTemplate()
                    .getSpec()
                    .getContainers()
                    .get(0);
            assertThat(service.getSpec().getPorts()).as(name).singleElement().satisfies(p -> {
                assertThat(p.getTargetPort()).isEqualTo(new IntOrString("http"));
                assertThat(p.getPort())
                        .as("the same port as the launcher and compose")
                        .isEqualTo(port(container, "http"));
                assertThat(p.getPort()).isNotEqualTo(MANAGEMENT_PORT);
            });
        });
        List<Ingress> ingresses = all(overlay, Ingress.class);
        assertThat(ingresses).hasSize(1);
        Ingress ingress = ingresses.get(0);
        assertThat(ingress.getSpec().getDefaultBackend()).isNull();
        List<IngressBackend> backends = ingress.getSpec().getRules().stream()
                .flatMap(rule -> rule.getHttp().getPaths().stream())
                .map(path -> path.getBackend())
                .toList();
        assertThat(backends).isNotEmpty().allSatisfy(backend -> {
            assertThat(backend.getService().getName()).isEqualTo(GATEWAY);
            assertThat(backend.getService().getPort().getName()).isEqualTo("http");
        });
        if (overlay.equals("production")) {
            assertThat(ingress.getSpec().getTls()).as("TLS at the edge").isNotEmpty();
        }
        // The services' URLs in the ConfigMap name these Services on their ports.
        Map<String, String> urls = configMap(overlay, "waitroom-services").getData();
        for (String key : List.of(
                "WAITROOM_SERVICES_QUEUEURL", "WAITROOM_SERVICES_COORDINATORURL", "WAITROOM_SERVICES_BOOKINGURL")) {
            String url = urls.get(key);
            assertThat(services.values())
                    .as(key)
                    .anySatisfy(s -> assertThat(url)
                            .isEqualTo("http://" + s.getMetadata().getName() + ":"
                                    + s.getSpec().getPorts().get(0).getPort()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "production"})
    void networkPoliciesLetOnlyTheGatewayInAndOnlyEachStoresOwnersReachIt(String overlay) {
        Network network = new Network(overlay, all(overlay, NetworkPolicy.class), byName(overlay, Deployment.class));
        Endpoint outside = Endpoint.outside();
        Endpoint ingressController = new Endpoint("ingress-nginx", Map.of("app.kubernetes.io/name", "ingress-nginx"));
        Endpoint prometheus = new Endpoint("monitoring", Map.of("app.kubernetes.io/name", "prometheus"));
        Endpoint neighbour = new Endpoint(network.namespace, Map.of("app", "something-else"));
        Endpoint redis = new Endpoint("waitroom-data", Map.of("waitroom.dev/store", "redis"));
        Endpoint postgres = new Endpoint("waitroom-data", Map.of("waitroom.dev/store", "postgresql"));

        for (String service : SERVICES) {
            int http = network.port(service);
            for (Endpoint stranger : List.of(outside, ingressController, neighbour)) {
                assertThat(network.ingressAllowed(stranger, service, http))
                        .as(overlay + ": " + stranger + " -> " + service)
                        .isEqualTo(service.equals(GATEWAY));
                assertThat(network.ingressAllowed(stranger, service, MANAGEMENT_PORT))
                        .as(overlay + ": " + stranger + " -> " + service + " management")
                        .isFalse();
            }
            assertThat(network.ingressAllowed(prometheus, service, MANAGEMENT_PORT))
                    .as("Prometheus scrapes " + service)
                    .isTrue();
            if (!service.equals(GATEWAY)) {
                assertThat(network.ingressAllowed(prometheus, service, http))
                        .as("Prometheus -> " + service + " API")
                        .isFalse();
            }
            assertThat(network.egressAllowed(service, new Endpoint("kube-system", Map.of("k8s-app", "kube-dns")), 53))
                    .as(service + " resolves names")
                    .isTrue();
            assertThat(network.egressAllowed(service, outside, 443))
                    .as(service + " -> the internet")
                    .isFalse();
        }

        Set<String> calls = new TreeSet<>();
        for (String from : SERVICES) {
            for (String to : SERVICES) {
                if (!from.equals(to)
                        && network.egressAllowed(from, network.pod(to), network.port(to))
                        && network.ingressAllowed(network.pod(from), to, network.port(to))) {
                    calls.add(from + " -> " + to);
                }
            }
        }
        assertThat(calls)
                .as(overlay + ": who may call whom")
                .containsExactlyInAnyOrder(
                        "gateway-service -> queue-service",
                        "gateway-service -> admission-coordinator",
                        "gateway-service -> booking-service",
                        "admission-coordinator -> queue-service",
                        "booking-service -> admission-coordinator",
                        // the gateway's published Waitroom-Admission keys, which booking verifies with like any origin
                        "booking-service -> gateway-service");

        Set<String> redisClients = SERVICES.stream()
                .filter(s -> network.egressAllowed(s, redis, 6379))
                .collect(Collectors.toSet());
        Set<String> postgresClients = SERVICES.stream()
                .filter(s -> network.egressAllowed(s, postgres, 5432))
                .collect(Collectors.toSet());
        assertThat(redisClients)
                .as("Redis is reached by its owners only")
                .containsExactlyInAnyOrder(GATEWAY, QUEUE, COORDINATOR);
        assertThat(postgresClients)
                .as("PostgreSQL is reached by its owners only")
                .containsExactlyInAnyOrder(COORDINATOR, BOOKING);
        assertThat(SERVICES)
                .allSatisfy(
                        s -> assertThat(network.egressAllowed(s, redis, 5432)).isFalse());
    }

    @Test
    void noSecretIsCommittedAndEverySecretReferencedIsDocumented() throws IOException {
        try (Stream<Path> files = Files.walk(K8S)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(file))
                        .as(file.toString())
                        .doesNotContainPattern("(?m)^kind:\\s*Secret\\s*$");
            }
        }
        String docs = Files.readString(ROOT.resolve("docs/operating/kubernetes.md"));
        RENDERED.forEach((overlay, objects) -> {
            assertThat(objects).as(overlay).noneMatch(o -> o.getKind().equals("Secret"));
            Set<String> referenced = new TreeSet<>();
            for (Deployment deployment : all(overlay, Deployment.class)) {
                for (Container container :
                        deployment.getSpec().getTemplate().getSpec().getContainers()) {
                    container.getEnvFrom().stream()
                            .filter(e -> e.getSecretRef() != null)
                            .forEach(e -> referenced.add(e.getSecretRef().getName()));
                    container.getEnv().stream()
                            .filter(e ->
                                    e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null)
                            .forEach(e -> referenced.add(
                                    e.getValueFrom().getSecretKeyRef().getName()));
                }
            }
            all(overlay, Ingress.class)
                    .forEach(i -> i.getSpec().getTls().forEach(t -> referenced.add(t.getSecretName())));
            assertThat(referenced)
                    .as(overlay)
                    .isNotEmpty()
                    .allSatisfy(name -> assertThat(docs)
                            .as("docs/operating/kubernetes.md says how to create Secret " + name)
                            .contains(name));
        });
        assertThat(docs).contains("deploy/k8s/secrets.sh").doesNotContain("waitroom-secrets ");
    }

    /**
     * Each container reads its secrets one key at a time ({@code secretKeyRef}, no {@code envFrom} of a Secret) from
     * its own service's Secret or a store's, and exactly the secrets of its row of {@link ServiceSecrets} (issue #28,
     * finding 4: every container read every secret from one shared Secret).
     */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "production"})
    void eachContainerReadsOnlyTheSecretsOfItsRowFromItsOwnSecret(String overlay) {
        Map<String, Map<String, String>> envs = new LinkedHashMap<>();
        for (Deployment deployment : all(overlay, Deployment.class)) {
            String module = deployment.getMetadata().getName();
            String own = "waitroom-" + ServiceSecrets.Service.ofModule(module).shortName() + "-secrets";
            Container container =
                    deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertThat(container.getEnvFrom()).as(module + ": no Secret whole").allMatch(e -> e.getSecretRef() == null);
            Map<String, String> env = new LinkedHashMap<>();
            for (EnvVar variable : container.getEnv()) {
                env.put(variable.getName(), String.valueOf(variable.getValue()));
                if (variable.getValueFrom() != null && variable.getValueFrom().getSecretKeyRef() != null) {
                    var ref = variable.getValueFrom().getSecretKeyRef();
                    if (variable.getName().startsWith("WAITROOM_")) {
                        assertThat(ref.getName())
                                .as(module + " " + variable.getName())
                                .isEqualTo(own);
                        assertThat(ref.getKey())
                                .as(module + " " + variable.getName())
                                .isEqualTo(variable.getName());
                    } else {
                        assertThat(ref.getName())
                                .as(module + ": a store's credential from the store's Secret")
                                .matches("waitroom-(redis|db-" + (module.equals(BOOKING) ? "booking" : "coordinator")
                                        + ")");
                    }
                }
            }
            envs.put(module, env);
        }
        assertThat(envs.keySet()).containsExactlyInAnyOrderElementsOf(SERVICES);
        SecretsPerServiceTests.assertRowsHeld(envs);
    }

    /**
     * deploy/k8s/secrets.sh prints one Secret per service with exactly the keys its container reads, each receiver
     * holding the SHA-256 of its callers' credentials, the shared keys equal where two services share one.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theSecretsScriptPrintsOneSecretPerServiceWithItsRowAndItsCallersHashes() throws Exception {
        Process process = new ProcessBuilder(
                        dev.waitroom.testsupport.TestTools.require("bash").toString(),
                        K8S.resolve("secrets.sh").toString(),
                        "waitroom")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor()).isZero();
        Map<ServiceSecrets.Service, Map<String, String>> secrets = new LinkedHashMap<>();
        for (Object document : new Yaml().loadAll(output)) {
            Map<String, Object> secret = (Map<String, Object>) document;
            assertThat(secret).containsEntry("kind", "Secret");
            Map<String, Object> metadata = (Map<String, Object>) secret.get("metadata");
            assertThat(metadata).containsEntry("namespace", "waitroom");
            String name = (String) metadata.get("name");
            ServiceSecrets.Service service = java.util.Arrays.stream(ServiceSecrets.Service.values())
                    .filter(s -> name.equals("waitroom-" + s.shortName() + "-secrets"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("an unknown Secret " + name));
            secrets.put(service, (Map<String, String>) secret.get("stringData"));
        }
        assertThat(secrets.keySet()).containsExactlyInAnyOrder(ServiceSecrets.Service.values());
        secrets.forEach((service, data) -> {
            Set<String> row = new TreeSet<>();
            ServiceSecrets.HELD.get(service).stream()
                    .filter(s -> s.variable().startsWith("WAITROOM_"))
                    .forEach(s -> row.add(s.variable()));
            assertThat(new TreeSet<>(data.keySet())).as(service.module()).isEqualTo(row);
            assertThat(ServiceSecrets.isCredential(data.get("WAITROOM_SECURITY_SERVICECREDENTIAL"), service))
                    .isTrue();
            for (ServiceSecrets.Service caller : ServiceSecrets.CALLERS.get(service)) {
                assertThat(data.get(ServiceSecrets.callersVariable(caller).variable()))
                        .as(service + " holds the hash of " + caller + "'s credential")
                        .isEqualTo(ServiceSecrets.hash(secrets.get(caller).get("WAITROOM_SECURITY_SERVICECREDENTIAL")));
            }
        });
        assertThat(secrets.get(ServiceSecrets.Service.QUEUE).get("WAITROOM_SECURITY_TICKETKEY"))
                .as("the queue-service signs the tickets the gateway verifies")
                .isEqualTo(secrets.get(ServiceSecrets.Service.GATEWAY).get("WAITROOM_SECURITY_TICKETKEY"));
        assertThat(new java.util.HashSet<>(List.of(
                        secrets.get(ServiceSecrets.Service.GATEWAY).get("WAITROOM_SECURITY_OPSTOKEN"),
                        secrets.get(ServiceSecrets.Service.COORDINATOR).get("WAITROOM_SECURITY_OPSTOKEN"),
                        secrets.get(ServiceSecrets.Service.BOOKING).get("WAITROOM_SECURITY_OPSTOKEN"))))
                .as("one ops token wherever /admin/** is answered")
                .hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "production"})
    void everyVariableIsOneTheServicesUnderstandAndEveryReferenceResolves(String overlay) throws IOException {
        String contracts = Files.readString(ROOT.resolve("docs/reference/contracts.md"));
        Set<String> documented = Pattern.compile("`([A-Z][A-Z0-9_]+)`")
                .matcher(contracts)
                .results()
                .map(m -> m.group(1))
                .collect(Collectors.toSet());
        Map<String, ConfigMap> configMaps = byName(overlay, ConfigMap.class);
        for (Deployment deployment : all(overlay, Deployment.class)) {
            Container container =
                    deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
            Set<String> names = new TreeSet<>(env(container).keySet());
            container.getEnvFrom().stream()
                    .filter(e -> e.getConfigMapRef() != null)
                    .forEach(e -> {
                        ConfigMap map = configMaps.get(e.getConfigMapRef().getName());
                        assertThat(map).as(e.getConfigMapRef().getName()).isNotNull();
                        names.addAll(map.getData().keySet());
                    });
            for (EnvVar variable : container.getEnv()) {
                if (variable.getValueFrom() != null && variable.getValueFrom().getConfigMapKeyRef() != null) {
                    var ref = variable.getValueFrom().getConfigMapKeyRef();
                    assertThat(configMaps.get(ref.getName()).getData())
                            .as(variable.getName())
                            .containsKey(ref.getKey());
                }
            }
            assertThat(names)
                    .as(overlay + " " + deployment.getMetadata().getName())
                    .allSatisfy(name -> assertThat(documented)
                            .as("docs/reference/contracts.md documents " + name)
                            .contains(name));
        }
        Map<String, String> stores = configMaps.get("waitroom-stores").getData();
        for (String database : List.of("coordinator", "booking")) {
            assertThat(stores.get(database + "-jdbc-url"))
                    .as("PgBouncer in transaction mode needs no server-side prepares")
                    .startsWith("jdbc:postgresql://")
                    .endsWith("/" + database + "?prepareThreshold=0");
        }
    }

    private static void assertProbe(String what, Container container, Probe probe, String path) {
        assertThat(probe).as(what).isNotNull();
        assertThat(probe.getHttpGet()).as(what).isNotNull();
        assertThat(probe.getHttpGet().getPath()).as(what).isEqualTo(path);
        IntOrString port = probe.getHttpGet().getPort();
        int number = port.getIntVal() != null ? port.getIntVal() : port(container, port.getStrVal());
        assertThat(number).as(what + " on the management port").isEqualTo(MANAGEMENT_PORT);
    }

    /**
     * Booking's test doubles exist only when switched on (its application.yml has both off): production switches on
     * neither, the dev overlay only the payment simulator (a dev cluster has no payment provider), in no ConfigMap.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "production"})
    void productionRunsNoTestDoubleAndDevOnlyThePaymentSimulator(String overlay) {
        List<String> doubles = List.of("WAITROOM_PAYMENTS_FAKE_ENABLED", "WAITROOM_BOOKING_FAULTS_ENABLED");
        for (ConfigMap map : all(overlay, ConfigMap.class)) {
            assertThat(map.getData())
                    .as(overlay + " " + map.getMetadata().getName())
                    .doesNotContainKeys(doubles.toArray(String[]::new));
        }
        byName(overlay, Deployment.class).forEach((name, deployment) -> {
            for (Container container :
                    deployment.getSpec().getTemplate().getSpec().getContainers()) {
                Map<String, String> env = env(container);
                Map<String, String> expected = overlay.equals("dev") && name.equals(BOOKING)
                        ? Map.of("WAITROOM_PAYMENTS_FAKE_ENABLED", "true")
                        : Map.of();
                Map<String, String> switched = new LinkedHashMap<>();
                doubles.stream().filter(env::containsKey).forEach(d -> switched.put(d, env.get(d)));
                assertThat(switched).as(overlay + " " + name).isEqualTo(expected);
            }
        });
    }

    private static int port(Container container, String name) {
        return container.getPorts().stream()
                .filter(p -> name.equals(p.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " has no port " + name));
    }

    private static Map<String, String> env(Container container) {
        Map<String, String> env = new LinkedHashMap<>();
        container.getEnv().forEach(e -> env.put(e.getName(), e.getValue()));
        return env;
    }

    private static ConfigMap configMap(String overlay, String name) {
        return Objects.requireNonNull(byName(overlay, ConfigMap.class).get(name), name);
    }

    private static <T extends HasMetadata> List<T> all(String overlay, Class<T> type) {
        return RENDERED.get(overlay).stream()
                .filter(type::isInstance)
                .map(type::cast)
                .toList();
    }

    private static <T extends HasMetadata> Map<String, T> byName(String overlay, Class<T> type) {
        Map<String, T> byName = new LinkedHashMap<>();
        all(overlay, type).forEach(o -> byName.put(o.getMetadata().getName(), o));
        return byName;
    }

    private static String kustomize(String kubectl, Path overlay) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(kubectl, "kustomize", overlay.toString()).start();
        process.getOutputStream().close();
        byte[] err;
        byte[] out;
        var stderr = new java.util.concurrent.CompletableFuture<byte[]>();
        Thread drain = new Thread(() -> {
            try {
                stderr.complete(process.getErrorStream().readAllBytes());
            } catch (IOException e) {
                stderr.completeExceptionally(e);
            }
        });
        drain.start();
        out = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("kubectl kustomize " + overlay + " did not finish in 60 s");
        }
        drain.join();
        err = stderr.join();
        if (process.exitValue() != 0) {
            fail("kubectl kustomize " + overlay + " failed: " + new String(err, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static List<HasMetadata> parse(String yaml) {
        List<HasMetadata> objects = new ArrayList<>();
        for (Object document : new Yaml().loadAll(yaml)) {
            if (document == null) {
                continue;
            }
            Map<String, Object> map = (Map<String, Object>) document;
            String type = map.get("apiVersion") + "/" + map.get("kind");
            Class<? extends HasMetadata> model = MODEL.get(type);
            if (model == null) {
                throw new AssertionError("no model is expected for " + type + " in deploy/k8s");
            }
            objects.add(STRICT.convertValue(map, model));
        }
        return objects;
    }

    /** A pod somewhere: its namespace and labels; a null namespace is outside the cluster. */
    record Endpoint(String namespace, Map<String, String> labels) {

        static Endpoint outside() {
            return new Endpoint(null, Map.of());
        }

        @Override
        public String toString() {
            return namespace == null ? "outside" : namespace + "/" + labels;
        }
    }

    /** NetworkPolicy semantics, enough for these policies: selectors, peers, numeric ports, default allow when unselected. */
    private static final class Network {

        final String namespace;
        private final List<NetworkPolicy> policies;
        private final Map<String, Deployment> deployments;

        Network(String overlay, List<NetworkPolicy> policies, Map<String, Deployment> deployments) {
            this.namespace = overlay.equals("dev") ? "waitroom-dev" : "waitroom";
            this.policies = policies;
            this.deployments = deployments;
        }

        Endpoint pod(String service) {
            return new Endpoint(
                    namespace,
                    deployments
                            .get(service)
                            .getSpec()
                            .getTemplate()
                            .getMetadata()
                            .getLabels());
        }

        int port(String service) {
            return KubernetesManifestTests.port(
                    deployments
                            .get(service)
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0),
                    "http");
        }

        boolean ingressAllowed(Endpoint from, String service, int port) {
            Endpoint to = pod(service);
            List<NetworkPolicy> selecting = selecting(to, "Ingress");
            return selecting.isEmpty()
                    || selecting.stream()
                            .flatMap(p -> p.getSpec().getIngress().stream())
                            .anyMatch(rule -> ports(rule.getPorts(), port) && peers(rule.getFrom(), from));
        }

        boolean egressAllowed(String service, Endpoint to, int port) {
            List<NetworkPolicy> selecting = selecting(pod(service), "Egress");
            return selecting.isEmpty()
                    || selecting.stream()
                            .flatMap(p -> p.getSpec().getEgress().stream())
                            .anyMatch(rule -> ports(rule.getPorts(), port) && peers(rule.getTo(), to));
        }

        private List<NetworkPolicy> selecting(Endpoint pod, String type) {
            return policies.stream()
                    .filter(p -> p.getSpec().getPolicyTypes().contains(type))
                    .filter(p -> matches(p.getSpec().getPodSelector(), pod.labels()))
                    .toList();
        }

        private static boolean ports(List<NetworkPolicyPort> ports, int port) {
            return ports == null
                    || ports.isEmpty()
                    || ports.stream().anyMatch(p -> {
                        assertThat(p.getPort().getIntVal())
                                .as("policies name ports by number")
                                .isNotNull();
                        return p.getPort().getIntVal() == port && (p.getEndPort() == null || p.getEndPort() >= port);
                    });
        }

        private boolean peers(List<NetworkPolicyPeer> peers, Endpoint endpoint) {
            if (peers == null || peers.isEmpty()) {
                return true;
            }
            return peers.stream().anyMatch(peer -> {
                if (peer.getIpBlock() != null) {
                    return endpoint.namespace() == null;
                }
                if (endpoint.namespace() == null) {
                    return false;
                }
                boolean namespaceMatches = peer.getNamespaceSelector() == null
                        ? endpoint.namespace().equals(namespace)
                        : matches(
                                peer.getNamespaceSelector(),
                                Map.of("kubernetes.io/metadata.name", endpoint.namespace()));
                return namespaceMatches
                        && (peer.getPodSelector() == null || matches(peer.getPodSelector(), endpoint.labels()));
            });
        }

        private static boolean matches(LabelSelector selector, Map<String, String> labels) {
            assertThat(selector.getMatchExpressions())
                    .as("policies select by labels only")
                    .isEmpty();
            return selector.getMatchLabels() == null
                    || selector.getMatchLabels().entrySet().stream()
                            .allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
        }
    }
}
