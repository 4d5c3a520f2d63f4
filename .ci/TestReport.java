import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What CI reads after the build, with real parsers instead of sed and grep; only the JDK, run as a single file.
 *
 * <pre>
 * java .ci/TestReport.java tests [ROOT] [--started EPOCH_SECONDS]
 *     every module's target/surefire-reports/TEST-*.xml and target/failsafe-reports/TEST-*.xml (the whole-stack
 *     tests) under ROOT (default .): a line per module, the failing and skipped tests by name, the total; exits 1
 *     when a test failed or erred, or (under CI=true) skipped, 2 when no report was found
 * java .ci/TestReport.java verdict FILE
 *     the on-sale rehearsal's verdict.tsv (deploy/loadtest, Verdict.tsv()): the failed checks; exits 0 only when
 *     it says passed, has checks, and every check that is a must passed; 2 when it is missing or unreadable
 * </pre>
 */
public final class TestReport {

    /** Folders that hold no report (or too much to walk); inside {@code target} only the reports are read. */
    private static final Set<String> SKIPPED = Set.of(".git", ".waitroom", ".mvn", "node_modules", "src");

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "" : args[0];
        int code = switch (command) {
            case "tests" -> tests(args);
            case "verdict" -> args.length == 2 ? verdict(Path.of(args[1])) : usage();
            default -> usage();
        };
        System.exit(code);
    }

    private static int usage() {
        System.err.println("usage: java .ci/TestReport.java tests [ROOT] [--started EPOCH_SECONDS]"
                + " | verdict deploy/loadtest/target/onsale-verdict/verdict.tsv");
        return 64;
    }

    // ---- surefire and failsafe reports

    record Counts(long tests, long failures, long errors, long skipped) {
        static final Counts NONE = new Counts(0, 0, 0, 0);

        Counts plus(Counts o) {
            return new Counts(tests + o.tests, failures + o.failures, errors + o.errors, skipped + o.skipped);
        }

        long passed() {
            return tests - failures - errors - skipped;
        }
    }

    record Failure(String module, String test, String kind, String message) {}

    private static int tests(String[] args) throws Exception {
        Path root = Path.of(".");
        Long started = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--started") && i + 1 < args.length) {
                started = Long.parseLong(args[++i]);
            } else {
                root = Path.of(args[i]);
            }
        }
        Map<String, Counts> modules = new TreeMap<>();
        List<Failure> failures = new ArrayList<>();
        List<Failure> skips = new ArrayList<>();
        for (Path report : reports(root)) {
            String module = moduleOf(root, report);
            Element suite = parse(report).getDocumentElement();
            if (!suite.getTagName().equals("testsuite")) {
                continue;
            }
            Counts counts = new Counts(
                    count(suite, "tests"), count(suite, "failures"), count(suite, "errors"), count(suite, "skipped"));
            modules.merge(module, counts, Counts::plus);
            NodeList cases = suite.getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element testCase = (Element) cases.item(i);
                for (Node child = testCase.getFirstChild(); child != null; child = child.getNextSibling()) {
                    if (child instanceof Element skip && skip.getTagName().equals("skipped")) {
                        skips.add(new Failure(
                                module, testName(testCase), "skipped", firstLine(skip.getAttribute("message"))));
                    }
                    if (child instanceof Element problem
                            && (problem.getTagName().equals("failure")
                                    || problem.getTagName().equals("error"))) {
                        failures.add(new Failure(
                                module,
                                testName(testCase),
                                problem.getTagName(),
                                firstLine(problem.getAttribute("message"))));
                    }
                }
            }
        }
        Counts total = Counts.NONE;
        for (Map.Entry<String, Counts> m : modules.entrySet()) {
            Counts c = m.getValue();
            System.out.printf(
                    Locale.ROOT,
                    "  %s: %d run, %d failed, %d errors, %d skipped%n",
                    m.getKey(),
                    c.tests(),
                    c.failures(),
                    c.errors(),
                    c.skipped());
            total = total.plus(c);
        }
        for (Failure f : failures) {
            System.out.printf(
                    Locale.ROOT,
                    "  FAILED %s: %s (%s)%s%n",
                    f.module(),
                    f.test(),
                    f.kind(),
                    f.message().isEmpty() ? "" : ": " + f.message());
        }
        for (Failure f : skips) {
            System.out.printf(
                    Locale.ROOT,
                    "  SKIPPED %s: %s%s%n",
                    f.module(),
                    f.test(),
                    f.message().isEmpty() ? "" : ": " + f.message());
        }
        if (started != null) {
            System.out.printf(Locale.ROOT, "  total time: %d s%n", System.currentTimeMillis() / 1000 - started);
        }
        System.out.printf(
                Locale.ROOT,
                "Tests: %d passed, %d failed, %d skipped%n",
                total.passed(),
                total.failures() + total.errors(),
                total.skipped());
        if (modules.isEmpty()) {
            System.err.println("ci: no surefire or failsafe report under "
                    + root.toAbsolutePath().normalize());
            return 2;
        }
        if (total.failures() + total.errors() > 0) {
            return 1;
        }
        if (total.skipped() > 0 && "true".equalsIgnoreCase(System.getenv("CI"))) {
            System.err.println("ci: under CI nothing may skip, and " + total.skipped() + " tests did");
            return 1;
        }
        return 0;
    }

    /** The folders in a {@code target} that hold test reports: Surefire's and Failsafe's. */
    private static final Set<String> REPORT_DIRS = Set.of("surefire-reports", "failsafe-reports");

    /**
     * {@code <module>/target/surefire-reports/TEST-*.xml} and {@code <module>/target/failsafe-reports/TEST-*.xml} at
     * any depth (so {@code deploy/loadtest} too).
     */
    static List<Path> reports(Path root) throws IOException {
        List<Path> reports = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                Path name = dir.getFileName();
                Path parent = dir.getParent();
                if (name != null && !dir.equals(root)) {
                    if (SKIPPED.contains(name.toString())) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    boolean inTarget = parent != null
                            && parent.getFileName() != null
                            && parent.getFileName().toString().equals("target");
                    if (inTarget && !REPORT_DIRS.contains(name.toString())) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String name = file.getFileName().toString();
                Path dir = file.getParent();
                if (name.startsWith("TEST-")
                        && name.endsWith(".xml")
                        && REPORT_DIRS.contains(dir.getFileName().toString())) {
                    reports.add(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        reports.sort(null);
        return reports;
    }

    /** {@code Class.method}, or the class alone where the failure is the class's own (a failed {@code @BeforeAll}). */
    private static String testName(Element testCase) {
        String name = testCase.getAttribute("name");
        String type = testCase.getAttribute("classname");
        return name.isBlank() ? type : type.isBlank() ? name : type + "." + name;
    }

    private static String moduleOf(Path root, Path report) {
        Path module =
                root.relativize(report.getParent().getParent().getParent()).normalize();
        String name = module.toString().replace('\\', '/');
        return name.isEmpty() ? String.valueOf(root.toAbsolutePath().normalize().getFileName()) : name;
    }

    private static org.w3c.dom.Document parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setExpandEntityReferences(false);
        try {
            return factory.newDocumentBuilder().parse(file.toFile());
        } catch (Exception e) {
            throw new IllegalStateException("not a readable test report: " + file + " (" + e.getMessage() + ")", e);
        }
    }

    private static long count(Element suite, String attribute) {
        String value = suite.getAttribute(attribute);
        return value.isBlank() ? 0 : Long.parseLong(value.trim());
    }

    private static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) + " ..." : line;
    }

    // ---- the on-sale verdict

    /** A line of verdict.tsv after the first: {@code must<TAB>passed<TAB>name<TAB>detail}. */
    record Check(boolean must, boolean passed, String name, String detail) {}

    private static int verdict(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException | UncheckedIOException e) {
            System.err.println("ci: no on-sale verdict at " + file + " (" + e.getMessage() + ")");
            return 2;
        }
        String[] first = lines.isEmpty() ? new String[0] : lines.get(0).split("\t", -1);
        if (first.length != 2 || !first[0].equals("passed")) {
            System.err.println("ci: the on-sale verdict at " + file + " does not start with passed<TAB>true|false");
            return 2;
        }
        boolean said = first[1].equals("true");
        List<Check> checks = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            if (fields.length != 4) {
                System.err.println(
                        "ci: the on-sale verdict at " + file + " has a line that is not four fields: " + line);
                return 2;
            }
            checks.add(new Check(fields[0].equals("true"), fields[1].equals("true"), fields[2], fields[3]));
        }
        List<String> failedMusts = new ArrayList<>();
        int warnings = 0;
        for (Check check : checks) {
            if (check.passed()) {
                continue;
            }
            if (check.must()) {
                failedMusts.add(check.name() + " — " + check.detail());
            } else {
                warnings++;
                System.out.println("  [warn] " + check.name() + " — " + check.detail());
            }
        }
        failedMusts.forEach(f -> System.out.println("  [FAIL] " + f));
        boolean passed = said && !checks.isEmpty() && failedMusts.isEmpty();
        System.out.printf(
                Locale.ROOT,
                "ci: on-sale verdict %s (%d checks, %d musts failed, %d warnings)%s%n",
                passed ? "PASS" : "FAIL",
                checks.size(),
                failedMusts.size(),
                warnings,
                said == passed
                        ? ""
                        : checks.isEmpty()
                                ? "; the file says passed=true but holds no checks"
                                : "; the file says passed=true, its checks disagree");
        return passed ? 0 : 1;
    }
}
