package dev.waitroom.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The healthchecks of docker-compose.yml, run on this machine the way Docker runs them in a container: compose's
 * interpolation applied ({@code $$} is a literal {@code $}), {@code CMD} executed directly, {@code CMD-SHELL} through
 * {@code /bin/dash -c} (the {@code /bin/sh} of the Debian and Ubuntu images), with the container's environment from
 * the file and nothing of this JVM's, within the healthcheck's own timeout. Only where a service listens differs:
 * {@link #mappedTo} points ports and compose host names at a stack on this machine.
 */
final class ComposeHealthchecks {

    static final Path DASH = Path.of("/bin/dash");
    private static final Pattern VARIABLE =
            Pattern.compile("\\$(?:(\\$)|\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?}|([A-Za-z_][A-Za-z0-9_]*))");
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)");

    private ComposeHealthchecks() {}

    /** One service's healthcheck as compose would run it: the command, the container environment and the timeout. */
    record Healthcheck(String service, List<String> command, Map<String, String> environment, Duration timeout) {

        /**
         * The same check pointed at a stack on this machine: each given variable the container has (a port) takes the
         * stack's value; {@code additions} are variables the container's image would supply itself (the PostgreSQL
         * image's socket, say), here as host and port.
         */
        Healthcheck mappedTo(Map<String, String> ports, Map<String, String> additions) {
            Map<String, String> env = new LinkedHashMap<>(environment);
            ports.forEach((name, value) -> env.computeIfPresent(name, (n, old) -> value));
            env.putAll(additions);
            return new Healthcheck(service, command, env, timeout);
        }

        /** Runs the command; the outcome carries its exit code and everything it printed. */
        Outcome run() throws IOException, InterruptedException {
            if (command.get(0).equals(DASH.toString())) {
                // CMD-SHELL runs through the images' /bin/sh, which is dash on Debian and Ubuntu.
                dev.waitroom.testsupport.TestTools.require("dash");
            }
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().clear();
            builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            builder.environment().putAll(environment);
            Process process = builder.start();
            process.getOutputStream().close();
            boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                process.destroyForcibly().waitFor();
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Outcome(service, finished ? process.exitValue() : -1, finished, output);
        }
    }

    /** @param exitCode 0 is healthy, as Docker counts it */
    record Outcome(String service, int exitCode, boolean finishedInTime, String output) {

        boolean healthy() {
            return finishedInTime && exitCode == 0;
        }

        @Override
        public String toString() {
            return service + ": " + (finishedInTime ? "exit " + exitCode : "timed out")
                    + (output.isBlank() ? "" : ", " + output.strip());
        }
    }

    /** Every service's healthcheck in the compose file, keyed by service, with {@code variables} as the .env file. */
    @SuppressWarnings("unchecked")
    static Map<String, Healthcheck> read(Path composeFile, Map<String, String> variables) throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(200);
        Map<String, Object> compose = new Yaml(options).load(Files.readString(composeFile));
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
        Map<String, Healthcheck> checks = new LinkedHashMap<>();
        services.forEach((name, service) -> {
            Map<String, Object> healthcheck = (Map<String, Object>) service.get("healthcheck");
            if (healthcheck == null || Boolean.TRUE.equals(healthcheck.get("disable"))) {
                return;
            }
            List<String> command = command(name, healthcheck.get("test"), variables);
            if (command.isEmpty()) {
                return;
            }
            Map<String, String> environment = new LinkedHashMap<>();
            Object env = service.get("environment");
            if (env instanceof Map<?, ?> map) {
                map.forEach((key, value) -> {
                    String resolved = interpolateOrNull(String.valueOf(value), variables);
                    if (resolved != null) {
                        environment.put(String.valueOf(key), resolved);
                    }
                });
            }
            Duration timeout = duration(String.valueOf(healthcheck.getOrDefault("timeout", "30s")));
            checks.put(name, new Healthcheck(name, command, environment, timeout));
        });
        return checks;
    }

    /** Docker's forms: {@code ["CMD", args...]}, {@code ["CMD-SHELL", command]} or a plain string (shell form). */
    static List<String> command(String service, Object test, Map<String, String> variables) {
        List<String> parts = new ArrayList<>();
        if (test instanceof String shell) {
            parts.add("CMD-SHELL");
            parts.add(shell);
        } else {
            ((List<?>) test).forEach(part -> parts.add(String.valueOf(part)));
        }
        List<String> resolved = parts.stream()
                .map(part -> interpolate(service, part, variables))
                .toList();
        return switch (resolved.get(0)) {
            case "NONE" -> List.of();
            case "CMD" -> resolved.subList(1, resolved.size());
            case "CMD-SHELL" -> {
                if (resolved.size() != 2) {
                    throw new IllegalArgumentException(service + ": CMD-SHELL takes exactly one command string");
                }
                yield List.of(DASH.toString(), "-c", resolved.get(1));
            }
            default ->
                throw new IllegalArgumentException(
                        service + ": a healthcheck test starts with CMD, CMD-SHELL or NONE, not " + resolved.get(0));
        };
    }

    /** Compose's interpolation; a required variable that is not set fails, as {@code docker compose} does. */
    static String interpolate(String service, String text, Map<String, String> variables) {
        String resolved = interpolateOrNull(text, variables);
        if (resolved == null) {
            throw new IllegalArgumentException(service + ": " + text + " needs a variable that is not set");
        }
        return resolved;
    }

    private static String interpolateOrNull(String text, Map<String, String> variables) {
        Matcher m = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement;
            if (m.group(1) != null) {
                replacement = "$";
            } else {
                String name = m.group(2) != null ? m.group(2) : m.group(5);
                String value = variables.get(name);
                String operator = m.group(3);
                boolean unset = value == null || (operator != null && operator.startsWith(":") && value.isEmpty());
                if (operator == null) {
                    replacement = value == null ? "" : value;
                } else if (operator.endsWith("-")) {
                    replacement = unset ? m.group(4) : value;
                } else if (unset) {
                    return null;
                } else {
                    replacement = value;
                }
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    static Duration duration(String text) {
        Matcher m = DURATION.matcher(text);
        Duration total = Duration.ZERO;
        while (m.find()) {
            long amount = Long.parseLong(m.group(1));
            total = total.plus(
                    switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(amount);
                        case "s" -> Duration.ofSeconds(amount);
                        default -> Duration.ofMinutes(amount);
                    });
        }
        return total;
    }
}
