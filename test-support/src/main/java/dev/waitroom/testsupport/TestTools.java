package dev.waitroom.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The programs outside the JDK that tests run, each found through this class only. The list is the resource
 * {@code test-tools.txt} beside this class, which {@code ./waitroom test} reads to install what is missing; a program
 * not listed there is refused at once, so a new test cannot depend on something the test command does not provide.
 *
 * <p>A listed program that is not installed skips the test with the reason and the package to install, except under
 * {@code CI=true}, where nothing may skip and it fails the test instead.
 */
public final class TestTools {

    /** The list's resource name, relative to this class. */
    public static final String LIST = "test-tools.txt";

    private static final Map<String, Tool> TOOLS = read();

    private static final List<String> SBIN = List.of("/usr/sbin", "/sbin", "/usr/local/sbin");

    private TestTools() {}

    /** One program of the list: its name, the Debian packages that provide it (first that installs wins), its use. */
    public record Tool(String name, List<String> packages, String neededBy) {}

    /** The listed programs, in the list's order. */
    public static Map<String, Tool> listed() {
        return TOOLS;
    }

    /**
     * The installed program's path; where it is missing, skips the calling test with the reason (fails it under CI).
     *
     * @throws IllegalStateException if {@code name} is not in the list
     */
    public static Path require(String name) {
        Tool tool = tool(name);
        Optional<Path> found = find(name);
        if (found.isPresent()) {
            return found.get();
        }
        String why = name + " is not installed, so these tests cannot run (" + tool.neededBy()
                + "): apt-get install -y " + tool.packages().get(0) + " (./waitroom test installs it where it can)";
        if (underCi()) {
            throw new AssertionError("under CI nothing may skip: " + why);
        }
        Assumptions.abort("SKIPPED: " + why);
        throw new AssertionError("unreachable");
    }

    /** The installed program's path, or empty; for the rare test that checks a little more where it exists. */
    public static Optional<Path> find(String name) {
        tool(name);
        List<String> dirs =
                new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.addAll(SBIN);
        return dirs.stream()
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** True where {@code CI=true}: the environment in which no test may skip. */
    public static boolean underCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    private static Tool tool(String name) {
        Tool tool = TOOLS.get(name);
        if (tool == null) {
            throw new IllegalStateException(name + " is not in test-support's " + LIST + ", so ./waitroom test does not"
                    + " provide it: add it there with the Debian package that installs it");
        }
        return tool;
    }

    private static Map<String, Tool> read() {
        try (InputStream in = TestTools.class.getResourceAsStream(LIST)) {
            if (in == null) {
                throw new IllegalStateException(LIST + " is missing beside " + TestTools.class.getName());
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The list's lines: {@code program packages[,package...] what needs it}; '#' starts a comment line. */
    public static Map<String, Tool> parse(String text) {
        Map<String, Tool> tools = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] parts = trimmed.split("\\s+", 3);
            if (parts.length < 3) {
                throw new IllegalStateException(LIST + ": a line needs a program, its packages and its use: " + line);
            }
            tools.put(parts[0], new Tool(parts[0], List.of(parts[1].split(",")), parts[2]));
        }
        return Collections.unmodifiableMap(tools);
    }
}
