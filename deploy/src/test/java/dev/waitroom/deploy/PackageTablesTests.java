package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each module's packages are described once, in the module's README, in a table whose first column names them (issue
 * #32): every package directly under the module's root package is in the table, and the table names no package that
 * does not exist. A package added without a line, or renamed without its line, fails here rather than drifting.
 */
class PackageTablesTests {

    private static final Pattern CODE = Pattern.compile("`([a-z][a-z0-9]*)(?:\\.[a-z0-9.]+)?`");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "gateway-service",
                "queue-service",
                "admission-coordinator",
                "booking-service",
                "contract",
                "web-kit",
                "shared-tokens",
                "verifiers/java"
            })
    void theReadmesPackageTableNamesExactlyTheModulesPackages(String module) throws IOException {
        Path dir = TestStacks.ROOT.resolve(module);
        Set<String> packages = packages(dir.resolve("src/main/java"));
        Set<String> listed = listed(dir.resolve("README.md"));
        assertThat(listed)
                .as("the package table of %s/README.md (first column, names in backticks) against src/main", module)
                .isEqualTo(packages);
    }

    /** The packages directly under the module's root package: the first directory holding a Java file, its children. */
    static Set<String> packages(Path sources) throws IOException {
        Path root;
        try (Stream<Path> files = Files.walk(sources)) {
            root = files.filter(p -> p.toString().endsWith(".java"))
                    .map(Path::getParent)
                    .min((a, b) -> Integer.compare(a.getNameCount(), b.getNameCount()))
                    .orElseThrow();
        }
        Set<String> out = new TreeSet<>();
        try (Stream<Path> children = Files.list(root)) {
            children.filter(Files::isDirectory)
                    .forEach(p -> out.add(p.getFileName().toString()));
        }
        return out;
    }

    /** The first column's names of the README's tables whose heading cell says "package". */
    static Set<String> listed(Path readme) throws IOException {
        Set<String> out = new TreeSet<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(readme)) {
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            List<String> cells = cells(line);
            if (cells.isEmpty()) {
                continue;
            }
            String first = cells.get(0);
            if (!inTable) {
                inTable = first.toLowerCase(java.util.Locale.ROOT).contains("package");
                continue;
            }
            if (first.matches("-+:?")) {
                continue;
            }
            Matcher m = CODE.matcher(first);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        for (String cell : line.substring(1).split("\\|")) {
            cells.add(cell.trim());
        }
        return cells;
    }
}
