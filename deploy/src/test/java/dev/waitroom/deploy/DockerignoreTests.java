package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image build context (deploy/docker/Dockerfile copies it whole) holds no secret, local data or build output,
 * and still holds every source file Maven needs. {@code .dockerignore} is read with Docker's rules: a pattern matches
 * a path relative to the context or any of its parent directories; {@code *} and {@code ?} stay within one path
 * segment, {@code **} spans any number of them; {@code !} re-includes.
 */
class DockerignoreTests {

    private static final Path ROOT = TestStacks.ROOT;
    private static List<Rule> rules;

    private record Rule(Pattern pattern, boolean exclude) {}

    @BeforeAll
    static void read() throws IOException {
        rules = new ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve(".dockerignore"))) {
            String text = line.strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            boolean exclude = !text.startsWith("!");
            String pattern = exclude ? text : text.substring(1).strip();
            rules.add(new Rule(regex(pattern.replaceFirst("^/+", "").replaceFirst("/+$", "")), exclude));
        }
    }

    @Test
    void secretsLocalDataBuildOutputAndIdeFilesStayOutOfTheImageBuild() {
        for (String path : List.of(
                ".env",
                ".env.production",
                "deploy/.env",
                ".waitroom/secrets.properties",
                ".waitroom/postgres/PG_VERSION",
                ".waitroom/logs/gateway-service.log",
                "data/.waitroom/secrets.properties",
                "secrets.properties",
                ".git/config",
                "queue-service/target/queue-service-0.1.0-SNAPSHOT.jar",
                "deploy/loadtest/target/onsale-verdict/verdict.json",
                "target/classes/x",
                "gateway-service/waitroom.log",
                ".idea/workspace.xml",
                "booking-service/booking-service.iml",
                ".vscode/settings.json",
                "tls/server.key",
                "deploy/k8s/tls.pem",
                "keystore.p12",
                "id_ed25519",
                ".mvn/wrapper/maven-wrapper.jar")) {
            assertThat(excluded(path)).as(path).isTrue();
        }
    }

    @Test
    void whatTheDockerfileBuildsFromIsKept() {
        for (String path : List.of(
                "pom.xml",
                "mvnw",
                ".mvn/wrapper/maven-wrapper.properties",
                "queue-service/pom.xml",
                "queue-service/src/main/java/dev/waitroom/queue/QueueServiceApplication.java",
                "queue-service/src/main/resources/application.yml",
                "contract/pom.xml",
                "deploy/docker/Dockerfile",
                "deploy/pom.xml",
                "deploy/loadtest/pom.xml")) {
            assertThat(excluded(path)).as(path).isFalse();
        }
    }

    /** Every file the repository tracks (the sources, poms, docs) reaches the build: nothing needed is left out. */
    @Test
    void noTrackedFileIsLeftOutOfTheBuildContext() throws Exception {
        List<String> tracked = gitLsFiles();
        Assumptions.assumeTrue(tracked != null, "no git checkout here (inside an image build, say)");
        assertThat(tracked).isNotEmpty();
        assertThat(tracked.stream().filter(DockerignoreTests::excluded).toList())
                .as("tracked files .dockerignore would leave out")
                .isEmpty();
    }

    @Test
    void theMatcherFollowsDockersRules() {
        assertThat(regex("**/target").matcher("target").matches()).isTrue();
        assertThat(regex("**/target").matcher("a/b/target").matches()).isTrue();
        assertThat(regex("*.iml").matcher("a/x.iml").matches()).isFalse();
        assertThat(regex("**/*.iml").matcher("a/x.iml").matches()).isTrue();
        assertThat(regex(".env").matcher("a/.env").matches()).isFalse();
        assertThat(regex("**/id_rsa*").matcher("home/id_rsa.pub").matches()).isTrue();
    }

    static boolean excluded(String path) {
        boolean excluded = false;
        for (Rule rule : rules) {
            if (matchesOrParentMatches(rule.pattern(), path)) {
                excluded = rule.exclude();
            }
        }
        return excluded;
    }

    private static boolean matchesOrParentMatches(Pattern pattern, String path) {
        String candidate = path;
        while (true) {
            if (pattern.matcher(candidate).matches()) {
                return true;
            }
            int slash = candidate.lastIndexOf('/');
            if (slash < 0) {
                return false;
            }
            candidate = candidate.substring(0, slash);
        }
    }

    static Pattern regex(String glob) {
        StringBuilder regex = new StringBuilder();
        String[] segments = glob.split("/");
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            boolean last = i == segments.length - 1;
            if (segment.equals("**")) {
                regex.append(last ? ".*" : "(?:.*/)?");
                continue;
            }
            for (char c : segment.toCharArray()) {
                switch (c) {
                    case '*' -> regex.append("[^/]*");
                    case '?' -> regex.append("[^/]");
                    default -> regex.append(Pattern.quote(String.valueOf(c)));
                }
            }
            if (!last) {
                regex.append('/');
            }
        }
        return Pattern.compile(regex.toString());
    }

    private static List<String> gitLsFiles() throws IOException, InterruptedException {
        if (!Files.exists(ROOT.resolve(".git"))) {
            return null;
        }
        Process git;
        try {
            git = new ProcessBuilder("git", "-C", ROOT.toString(), "ls-files")
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException noGit) {
            return null;
        }
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!git.waitFor(30, TimeUnit.SECONDS) || git.exitValue() != 0) {
            return null;
        }
        return out.lines().filter(l -> !l.isBlank()).toList();
    }
}
