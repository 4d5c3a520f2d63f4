package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.testsupport.TestTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every program a test runs is one that {@code ./waitroom test} provides: named through {@link TestTools}, listed in
 * its {@code test-tools.txt} with the Debian package that installs it, and that list is the one the test command reads.
 * A test that starts a program the list does not name, or looks one up on PATH by itself, fails this check.
 */
class TestToolsTests {

    private static final Path ROOT = TestStacks.ROOT;

    private static final Path LIST =
            ROOT.resolve("test-support/src/main/resources/dev/waitroom/testsupport/" + TestTools.LIST);

    /** Programs every machine that runs the tests has: the JDK's, the clone's git, and Debian's essential kill. */
    private static final Set<String> BASE = Set.of("java", "git", "kill");

    private static final Pattern NAMED = Pattern.compile("TestTools\\.(?:require|find)\\(\"([^\"]+)\"\\)");

    private static final Pattern STARTED = Pattern.compile("new ProcessBuilder\\(\\s*\"([^\"]+)\"");

    /** A PATH lookup by hand: PATH split into directories, or a program's name joined to a directory. */
    private static final Pattern OWN_LOOKUP =
            Pattern.compile("\"PATH\"[^;]{0,80}\\.split\\(|Path\\.of\\(\\s*(?:d|dir)\\s*,\\s*\"[a-z][a-z0-9_-]*\"\\)");

    @Test
    void everyProgramATestNamesIsListedAndEveryListedProgramIsUsed() throws IOException {
        TreeMap<String, List<String>> named = new TreeMap<>();
        for (Path source : testSources()) {
            if (source.endsWith("TestToolsTests.java")) {
                continue; // names an unlisted program on purpose
            }
            Matcher m = NAMED.matcher(Files.readString(source));
            while (m.find()) {
                named.computeIfAbsent(m.group(1), k -> new ArrayList<>())
                        .add(ROOT.relativize(source).toString());
            }
        }
        assertThat(named.keySet())
                .as("programs the tests ask TestTools for (%s), each must be in %s", named, ROOT.relativize(LIST))
                .isSubsetOf(TestTools.listed().keySet());
        assertThat(TestTools.listed().keySet())
                .as("every program in %s is used by a test; drop the ones none uses", ROOT.relativize(LIST))
                .isSubsetOf(named.keySet());
    }

    @Test
    void noTestStartsOrLooksUpAProgramOutsideTestTools() throws IOException {
        List<String> offences = new ArrayList<>();
        for (Path source : testSources()) {
            if (source.endsWith("TestTools.java")) {
                continue;
            }
            String text = Files.readString(source);
            Matcher started = STARTED.matcher(text);
            while (started.find()) {
                String program = started.group(1);
                if (!BASE.contains(program) && !TestTools.listed().containsKey(program)) {
                    offences.add(ROOT.relativize(source) + " starts " + program);
                }
            }
            Matcher lookup = OWN_LOOKUP.matcher(text);
            while (lookup.find()) {
                offences.add(ROOT.relativize(source) + " looks a program up itself: " + lookup.group());
            }
        }
        assertThat(offences)
                .as("find programs through TestTools.require, so ./waitroom test provides them")
                .isEmpty();
    }

    @Test
    void theTestCommandReadsTheSameListAndCiCallsTheTestCommandWithoutInstallingAnything() throws IOException {
        String launcher = Files.readString(ROOT.resolve("waitroom"));
        assertThat(launcher).contains(ROOT.relativize(LIST).toString()).contains("prepare_test_tools");
        String ci = Files.readString(ROOT.resolve(".ci/run"));
        assertThat(ci).contains("./waitroom test").doesNotContain("apt-get");
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertThat(readme.lines().limit(6)).anyMatch(line -> line.startsWith("./waitroom test"));
    }

    @Test
    void aProgramMissingFromTheListIsRefusedAtOnce() {
        assertThatThrownBy(() -> TestTools.require("not-a-listed-program"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("./waitroom test does not provide it");
        assertThat(TestTools.listed().values())
                .allSatisfy(tool -> assertThat(tool.packages()).isNotEmpty());
    }

    private static List<Path> testSources() throws IOException {
        List<Path> roots = new ArrayList<>();
        // every module's tests, at any depth (deploy/loadtest, verifiers/java)
        try (Stream<Path> dirs = Files.walk(ROOT, 5)) {
            dirs.filter(d -> d.endsWith(Path.of("src", "test", "java")))
                    .filter(d ->
                            !d.toString().contains("/target/") && !d.toString().contains("/node_modules/"))
                    .forEach(roots::add);
        }
        // test-support is test code shipped as a library: its main sources count too
        roots.add(ROOT.resolve("test-support/src/main/java"));
        Set<Path> sources = new TreeSet<>();
        for (Path root : roots) {
            if (Files.isDirectory(root)) {
                try (Stream<Path> files = Files.walk(root)) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
                }
            }
        }
        assertThat(sources).as("test sources found under " + ROOT).hasSizeGreaterThan(50);
        return List.copyOf(sources);
    }
}
