package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The opening minute's schedule and report code (deploy/bench/OpeningSchedule.java and OpeningReport.java, run by
 * {@code ./waitroom bench --opening-minute}): the arrivals are every visitor once, twice the average rate in the
 * first sixth; the 5-second windows add up their seconds; the HTML page fetches nothing and parses as XML; the JSON
 * reads back. Not the figures: those are a benchmark's (docs/BENCHMARKS.md). The two files are single-file programs
 * outside any module, compiled here from the repository as bench.sh compiles them.
 */
class OpeningMinuteReportTests {

    private static final long SECOND = 1_000_000_000L;

    private static ClassLoader bench;

    @BeforeAll
    static void compile(@TempDir Path classes) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path dir = TestStacks.ROOT.resolve("deploy/bench");
        StringWriter errors = new StringWriter();
        boolean ok = javac.getTask(
                        errors,
                        null,
                        null,
                        List.of("-d", classes.toString()),
                        null,
                        javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)
                                .getJavaFileObjects(
                                        dir.resolve("OpeningSchedule.java"), dir.resolve("OpeningReport.java")))
                .call();
        assertThat(ok).as("compiling deploy/bench: %s", errors).isTrue();
        bench = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null);
    }

    @Test
    void theRushIsTwiceTheAverageRateAndEveryVisitorArrivesOnce() throws Exception {
        for (int[] run : new int[][] {{2_000, 10}, {200_000, 60}, {20_000, 20}, {7, 6}}) {
            int visitors = run[0];
            long seconds = run[1];
            long[] at = (long[]) call("OpeningSchedule", "arrivalsNanos", visitors, seconds, 29L);

            assertThat(at).hasSize(visitors);
            assertThat(at).isSorted();
            assertThat(at[0]).isGreaterThanOrEqualTo(0);
            assertThat(at[visitors - 1]).isLessThan(seconds * SECOND);
            long rushEnd = seconds * SECOND / 6;
            long inRush = Arrays.stream(at).filter(t -> t < rushEnd).count();
            assertThat(inRush).isEqualTo(Math.round(visitors / 3.0));
            double average = visitors / (double) seconds;
            double rushRate = inRush / (rushEnd / (double) SECOND);
            double restRate = (visitors - inRush) / ((seconds * SECOND - rushEnd) / (double) SECOND);
            if (visitors >= 2_000) {
                assertThat(rushRate / average).isCloseTo(2.0, within(0.01));
                assertThat(restRate / average).isCloseTo(0.8, within(0.01));
            }
        }
    }

    @Test
    void theArrivalsAfterTheRushAreSpreadOverTheRestAndTheSeedRepeatsThem() throws Exception {
        long[] at = (long[]) call("OpeningSchedule", "arrivalsNanos", 200_000, 60L, 29L);
        // five 10-second stretches after the rush: each about a fifth of the two thirds that come after it
        for (int k = 1; k < 6; k++) {
            long from = k * 10 * SECOND, to = (k + 1) * 10 * SECOND;
            long n = Arrays.stream(at).filter(t -> t >= from && t < to).count();
            assertThat(n).as("arrivals in %d-%d s", k * 10, k * 10 + 10).isBetween(26_000L, 27_400L);
        }
        assertThat((long[]) call("OpeningSchedule", "arrivalsNanos", 200_000, 60L, 29L))
                .isEqualTo(at);
        assertThat((long[]) call("OpeningSchedule", "arrivalsNanos", 200_000, 60L, 30L))
                .isNotEqualTo(at);
    }

    @Test
    void windowsOfFiveSecondsAddUpTheirSeconds() throws Exception {
        Object recorder = construct("OpeningReport$Recorder", 20);
        for (int s = 0; s < 12; s++) {
            long latency = s < 5 ? 10_000_000L : 100_000_000L;
            for (int j = 0; j < (s + 1) * 10; j++) {
                long due = s * SECOND + SECOND / 4 + j * 1_000_000L;
                call(recorder, "joinOffered", due);
                call(recorder, "joinAnswered", due, due + latency);
            }
            if (s < 10) {
                for (int j = 0; j < 3; j++) {
                    call(recorder, "pollAnswered", s * SECOND + j, s * SECOND + j + 2_000_000L, true);
                }
                call(recorder, "pollAnswered", s * SECOND + 9, s * SECOND + 9 + 50_000_000L, false);
            }
        }
        call(recorder, "joinOffered", 6 * SECOND + 200_000_000L);
        call(recorder, "joinRefused", 6 * SECOND + 200_000_000L, 6 * SECOND + 210_000_000L, "429 client-limit");
        call(recorder, "joinOffered", 11 * SECOND + 100_000_000L);
        call(recorder, "joinLost", 11 * SECOND + 100_000_000L, 11 * SECOND + 900_000_000L, "no answer");

        List<?> windows = (List<?>) call(recorder, "windows", 5, 12);

        assertThat(windows).hasSize(3);
        Object first = windows.get(0), second = windows.get(1), last = windows.get(2);
        assertThat(get(first, "fromSecond")).isEqualTo(0);
        assertThat(get(first, "toSecond")).isEqualTo(5);
        assertThat(get(first, "offered")).isEqualTo(150L); // 10 + 20 + 30 + 40 + 50
        assertThat(get(first, "joined")).isEqualTo(150L);
        assertThat((double) get(first, "offeredPerSecond")).isEqualTo(30.0);
        assertThat((double) get(first, "joinP50")).isCloseTo(10.0, within(0.4));
        assertThat((double) get(first, "joinP99")).isCloseTo(10.0, within(0.4));
        assertThat(get(first, "edge")).isEqualTo(15L);
        assertThat(get(first, "forwarded")).isEqualTo(5L);
        assertThat((double) get(first, "edgeShare")).isEqualTo(75.0);
        assertThat((double) get(first, "pollP99")).isCloseTo(50.0, within(2.0));

        assertThat(get(second, "offered")).isEqualTo(60L + 70 + 80 + 90 + 100 + 1);
        assertThat(get(second, "joined")).isEqualTo(400L);
        assertThat(get(second, "refused")).isEqualTo(1L);
        assertThat(get(second, "lost")).isEqualTo(0L);
        assertThat((double) get(second, "joinP99")).isCloseTo(100.0, within(3.5));

        // the last window is two seconds long: its rates are per second of those two
        assertThat(get(last, "toSecond")).isEqualTo(12);
        assertThat(get(last, "offered")).isEqualTo(110L + 120 + 1);
        assertThat((double) get(last, "joinedPerSecond")).isEqualTo(115.0);
        assertThat(get(last, "lost")).isEqualTo(1L);
        assertThat((double) get(last, "edgeShare")).isNaN();

        assertThat(call(recorder, "refusedByType")).isEqualTo(Map.of("429 client-limit", 1L));
        assertThat(call(recorder, "lostByReason")).isEqualTo(Map.of("no answer", 1L));
        long[] offered = (long[]) call(recorder, "series", "offered");
        assertThat(offered).hasSize(20);
        assertThat(offered[0]).isEqualTo(10);
        assertThat(offered[6]).isEqualTo(71);
        long[] failed = (long[]) call(recorder, "series", "failed");
        assertThat(failed[6]).isEqualTo(1);
        assertThat(failed[11]).isEqualTo(1);
        assertThat(Arrays.stream(failed).sum()).isEqualTo(2);
        // the report ends with the last second a join was due or answered in, not with the recorder's length
        assertThat(call(recorder, "lastJoinSecond")).isEqualTo(11);
    }

    @Test
    void theHtmlPageFetchesNothingAndParsesAsXml() throws Exception {
        Map<String, Object> sections = new LinkedHashMap<>();
        Map<String, Object> joins = new LinkedHashMap<>();
        joins.put("joined", 2000L);
        joins.put("refusedByProblemType", Map.of("429 https://waitroom.dev/problems/rate-limited", 3L));
        joins.put("p99Ms", 12.5);
        sections.put("joins <& co>", joins);
        sections.put("windows", List.of(Map.of("fromSecond", 0, "joined", 5L), Map.of("fromSecond", 5, "joined", 7L)));
        List<Object> series = new ArrayList<>();
        series.add(construct("OpeningReport$Series", "joins offered", "#1f77b4", new long[] {1, 2, 3, 4, 5, 6}));
        series.add(construct("OpeningReport$Series", "polls at the edge", "#ff7f0e", new long[] {0, 0, 9, 9, 9, 0}));

        String html = (String)
                call("OpeningReport", "html", "Opening <minute> & co", "PASS: \"all\" joined", true, sections, series);

        assertThat(html).doesNotContainIgnoringCase("<script");
        assertThat(html).doesNotContainIgnoringCase("@import");
        assertThat(html).doesNotContainIgnoringCase("@font-face");
        assertThat(html).doesNotContainIgnoringCase("url(");
        var factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document page =
                factory.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
        NodeList all = page.getElementsByTagNameNS("*", "*");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            assertThat(e.getLocalName()).isNotIn("script", "link", "img", "iframe", "object", "embed", "image", "use");
            NamedNodeMap attributes = e.getAttributes();
            for (int a = 0; a < attributes.getLength(); a++) {
                assertThat(attributes.item(a).getLocalName())
                        .as("attribute of <%s>", e.getLocalName())
                        .isNotIn("src", "href");
            }
        }
        assertThat(page.getElementsByTagNameNS("*", "title").item(0).getTextContent())
                .isEqualTo("Opening <minute> & co");
        assertThat(page.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg")
                        .getLength())
                .isEqualTo(1);
        NodeList lines = page.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline");
        assertThat(lines.getLength()).isEqualTo(2);
        for (int i = 0; i < lines.getLength(); i++) {
            String[] points = ((Element) lines.item(i)).getAttribute("points").split(" ");
            assertThat(points).hasSize(6);
        }
        assertThat(page.getDocumentElement().getTextContent())
                .contains("joins <& co>", "PASS: \"all\" joined", "2,000", "12.50");
    }

    @Test
    void theJsonReadsBackAsWritten() throws Exception {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("name", "opening \"minute\"\n");
        figures.put("pass", false);
        figures.put("share", Double.NaN);
        figures.put("p99Ms", 12.25);
        figures.put("perSecond", new long[] {1, 2, 3});
        figures.put("windows", List.of(Map.of("joined", 5L), Map.of()));
        figures.put("nothing", null);

        JsonNode read = JsonMapper.builder().build().readTree((String) call("OpeningReport", "json", figures));

        assertThat(read.get("name").asString()).isEqualTo("opening \"minute\"\n");
        assertThat(read.get("pass").asBoolean()).isFalse();
        assertThat(read.get("share").isNull()).isTrue();
        assertThat(read.get("p99Ms").asDouble()).isEqualTo(12.25);
        assertThat(read.get("perSecond").size()).isEqualTo(3);
        assertThat(read.get("perSecond").get(2).asLong()).isEqualTo(3);
        assertThat(read.get("windows").get(0).get("joined").asLong()).isEqualTo(5);
        assertThat(read.get("windows").get(1).size()).isZero();
        assertThat(read.get("nothing").isNull()).isTrue();
    }

    // --- reflection on the compiled single-file programs (default package, package-private) ------------------------

    private static Object construct(String className, Object... args) throws Exception {
        Class<?> type = Class.forName(className, true, bench);
        for (Constructor<?> c : type.getDeclaredConstructors()) {
            if (c.getParameterCount() == args.length) {
                c.setAccessible(true);
                return c.newInstance(args);
            }
        }
        throw new NoSuchMethodException(className + " with " + args.length + " arguments");
    }

    private static Object call(Object target, String name, Object... args) throws Exception {
        Class<?> type = target instanceof String className ? Class.forName(className, true, bench) : target.getClass();
        Object self = target instanceof String ? null : target;
        for (Method m : type.getDeclaredMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                m.setAccessible(true);
                return m.invoke(self, args);
            }
        }
        throw new NoSuchMethodException(type.getName() + "." + name + " with " + args.length + " arguments");
    }

    private static Object get(Object record, String accessor) throws Exception {
        return call(record, accessor);
    }
}
