package dev.waitroom.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a ledger into the rehearsal's verdict: figures, and the "musts" that fail the run. Written as text and JSON
 * next to Gatling's HTML report.
 */
final class Verdict {

    record Check(String name, boolean must, boolean passed, String detail) {}

    private final Map<String, Object> figures = new LinkedHashMap<>();
    private final List<Check> checks = new ArrayList<>();

    static Verdict of(Ledger ledger, LoadParameters p, Map<String, Long> finalCounts) {
        return of(ledger, p, finalCounts, Map.of());
    }

    /**
     * The verdict of a rehearsal spread over regions (docs/operating/regions.md): {@code finalCounts} is the total of the
     * regions' queues, {@code regionCounts} each region's own; empty for a single region.
     */
    static Verdict of(
            Ledger ledger,
            LoadParameters p,
            Map<String, Long> finalCounts,
            Map<String, Map<String, Long>> regionCounts) {
        Verdict v = new Verdict();
        for (String kind : List.of("join", "status", "claim", "hold", "order")) {
            List<Ledger.Timing> t = ledger.timings(kind);
            v.figures.put(kind + ".count", t.size());
            v.figures.put(kind + ".peakPerSecond", peakPerSecond(t));
            v.figures.put(kind + ".p50Ms", percentile(t, 0.50));
            v.figures.put(kind + ".p99Ms", percentile(t, 0.99));
        }
        long polls = ledger.edgeAnswered() + ledger.forwarded();
        double edgeShare = polls == 0 ? 0 : (double) ledger.edgeAnswered() / polls;
        v.figures.put("status.answeredAtEdgeShare", round(edgeShare));

        List<Ledger.LiveSample> samples = ledger.liveSamples();
        long maxLive =
                samples.stream().mapToLong(s -> s.offered() + s.active()).max().orElse(0);
        v.figures.put("live.max", maxLive);
        v.figures.put("live.ceiling", p.capacity());
        v.checks.add(new Check(
                "live sessions never above the ceiling",
                true,
                maxLive <= p.capacity(),
                "max offered+active sampled " + maxLive + " of " + samples.size() + " samples, ceiling "
                        + p.capacity()));
        v.checks.add(new Check("the live view was sampled", true, samples.size() >= 5, samples.size() + " samples"));

        List<Ledger.Timing> claims = ledger.timings("claim");
        double admissionsPerSecond = averagePerSecond(claims);
        v.figures.put("admissions.perSecondAverage", round(admissionsPerSecond));
        v.figures.put("admissions.configuredPerSecond", p.admissionsPerSecond());
        // Claims follow offers by a poll interval, so claims can bunch: reported, the ceiling is the must.
        v.checks.add(new Check(
                "claims per second within the configured admission rate (1 s windows, +1 for edges)",
                false,
                peakPerSecond(claims) <= p.admissionsPerSecond() + 1,
                "peak " + peakPerSecond(claims) + "/s against " + p.admissionsPerSecond() + "/s"));

        List<String> sold = ledger.soldSeats();
        Set<String> distinct = new HashSet<>(sold);
        v.figures.put("seats.sold", sold.size());
        v.checks.add(new Check(
                "no seat sold twice",
                true,
                distinct.size() == sold.size(),
                (sold.size() - distinct.size()) + " seats sold twice"));

        Map<String, Integer> outcomes = ledger.outcomes();
        v.figures.put("visitors.outcomes", outcomes);
        int joined = outcomes.getOrDefault("joined", 0);
        long accounted = finalCounts.getOrDefault("waiting", 0L)
                + finalCounts.getOrDefault("offered", 0L)
                + finalCounts.getOrDefault("active", 0L)
                + finalCounts.getOrDefault("completed", 0L)
                + finalCounts.getOrDefault("left", 0L)
                + finalCounts.getOrDefault("expired", 0L);
        v.figures.put("queue.finalCounts", new TreeMap<>(finalCounts));
        long queueJoins = finalCounts.getOrDefault("joins", (long) joined);
        v.checks.add(new Check(
                "no visitor lost (joined = waiting + offered + active + completed + left + expired)",
                true,
                !finalCounts.isEmpty() && accounted == joined && queueJoins == joined,
                finalCounts.isEmpty()
                        ? "the live view gave no queue counts"
                        : "joined " + joined + " (queue counted " + queueJoins + "), accounted " + accounted));

        double before = averageRate(samples, 0, ledger.slowdownStartMillis());
        double during = averageRate(samples, ledger.slowdownStartMillis() + 3000, ledger.slowdownEndMillis());
        v.figures.put("slowdown.admissionRateBefore", round(before));
        v.figures.put("slowdown.admissionRateDuring", round(during));
        v.checks.add(new Check(
                "admission rate falls while booking is slow",
                false,
                ledger.slowdownStartMillis() == 0 || during < before,
                String.format(Locale.ROOT, "%.2f/s before, %.2f/s during", before, during)));
        if (!regionCounts.isEmpty()) {
            v.regions(ledger, p, regionCounts);
        }
        v.estimates(ledger);
        return v;
    }

    /**
     * Per region: its visitors' outcomes and its queue's final counts, and no visitor lost in it (a must); over all
     * regions, from the capacity ledger's budgets sampled every second: live grants (every region's plus those held
     * centrally) and leased budgets never above the ceiling (musts).
     */
    private void regions(Ledger ledger, LoadParameters p, Map<String, Map<String, Long>> regionCounts) {
        Map<String, Map<String, Integer>> outcomes = ledger.regionOutcomes();
        for (Map.Entry<String, Map<String, Long>> region : regionCounts.entrySet()) {
            String name = region.getKey();
            Map<String, Long> counts = region.getValue();
            Map<String, Integer> seen = outcomes.getOrDefault(name, Map.of());
            figures.put("regions." + name + ".outcomes", new TreeMap<>(seen));
            figures.put("regions." + name + ".queueFinalCounts", new TreeMap<>(counts));
            int joined = seen.getOrDefault("joined", 0);
            long accounted = accounted(counts);
            long queueJoins = counts.getOrDefault("joins", (long) joined);
            checks.add(new Check(
                    "region " + name + ": no visitor lost (joined = waiting + offered + active + completed + left"
                            + " + expired)",
                    true,
                    !counts.isEmpty() && accounted == joined && queueJoins == joined,
                    counts.isEmpty()
                            ? "region " + name + "'s live view gave no queue counts"
                            : "joined " + joined + " (queue counted " + queueJoins + "), accounted " + accounted));
        }
        List<Ledger.BudgetSample> budgets = ledger.budgetSamples();
        long maxLive = budgets.stream()
                .mapToLong(b -> b.centralLive() + b.totalUsed())
                .max()
                .orElse(0);
        long maxLeased =
                budgets.stream().mapToLong(Ledger.BudgetSample::held).max().orElse(0);
        Map<String, Long> maxSlots = new TreeMap<>();
        Map<String, Long> maxUsed = new TreeMap<>();
        for (Ledger.BudgetSample b : budgets) {
            b.slots().forEach((r, n) -> maxSlots.merge(r, n, Math::max));
            b.used().forEach((r, n) -> maxUsed.merge(r, n, Math::max));
        }
        figures.put("ledger.budgetSamples", budgets.size());
        figures.put("ledger.maxLiveGrants", maxLive);
        figures.put("ledger.maxLeasedSlots", maxLeased);
        figures.put("ledger.maxSlotsPerRegion", maxSlots);
        figures.put("ledger.maxUsedPerRegion", maxUsed);
        checks.add(new Check(
                "the capacity ledger's budgets were sampled",
                true,
                budgets.size() >= 5,
                budgets.size() + " samples of GET /admin/events/{e}/regions"));
        checks.add(new Check(
                "live grants in the ledger (every region's and the central ones) never above the ceiling",
                true,
                maxLive <= p.capacity(),
                "max " + maxLive + " of " + budgets.size() + " samples, ceiling " + p.capacity()));
        checks.add(new Check(
                "central grants plus each region's budget (or its live grants, if more) never above the ceiling",
                true,
                maxLeased <= p.capacity(),
                "max " + maxLeased + ", ceiling " + p.capacity()));
    }

    private static long accounted(Map<String, Long> counts) {
        return counts.getOrDefault("waiting", 0L)
                + counts.getOrDefault("offered", 0L)
                + counts.getOrDefault("active", 0L)
                + counts.getOrDefault("completed", 0L)
                + counts.getOrDefault("left", 0L)
                + counts.getOrDefault("expired", 0L);
    }

    /** Below this many admitted visitors a share of 90 % says too little to fail a run on (docs/design/estimates.md). */
    static final int ESTIMATE_MIN_SAMPLES = 100;

    /** The share of real waits inside the range shown that the brief asks for at a steady rate. */
    static final double ESTIMATE_SHARE = 0.90;

    /**
     * The widest range that means something, as the status answers it (docs/design/estimates.md): the median of (upper -
     * lower) / max(real wait, {@value #WIDTH_FLOOR_SECONDS} s) over every range shown at a steady rate is at most this.
     */
    static final double ESTIMATE_WIDTH = 1.0;

    /** Below a minute of real wait, a range's width is judged against a minute. */
    static final double WIDTH_FLOOR_SECONDS = 60;

    /** "Ten minutes before admission" (or at join, when the wait was shorter). */
    static final long TEN_MINUTES_MS = 600_000;

    /** How one admitted visitor's real wait compared with one range shown. */
    record Scored(boolean inside, boolean early, double waitSeconds, Ledger.Shown range) {}

    static Scored score(Ledger.Shown range, long offeredAtMillis) {
        double wait = (offeredAtMillis - range.atMillis()) / 1000.0;
        return new Scored(wait >= range.min() && wait <= range.max(), wait < range.min(), wait, range);
    }

    /** The range shown first: at the join, or at the first answer after the draw for the pre-sale group. */
    static Ledger.Shown atJoin(Ledger.Waited w) {
        return w.shown().get(0);
    }

    /** The last range shown at least ten minutes before the offer, or the first when the wait was shorter. */
    static Ledger.Shown tenMinutesBefore(Ledger.Waited w) {
        Ledger.Shown chosen = w.shown().get(0);
        for (Ledger.Shown s : w.shown()) {
            if (s.atMillis() <= w.offeredAtMillis() - TEN_MINUTES_MS) {
                chosen = s;
            }
        }
        return chosen;
    }

    /**
     * The accuracy of the wait estimates: for every admitted visitor shown a range, whether the real wait (offer time
     * less the time the range was shown) fell inside the range shown at join and the one shown ten minutes before
     * admission; at a steady rate (the wait did not overlap the injected slowdown) and during it. The steady share at
     * join is a must once there are {@value #ESTIMATE_MIN_SAMPLES} samples; below that it is reported (a 90 % share
     * of a few dozen says little either way).
     */
    private void estimates(Ledger ledger) {
        long slowStart = ledger.slowdownStartMillis();
        long slowEnd = ledger.slowdownEndMillis();
        List<Ledger.Waited> steady = new ArrayList<>();
        List<Ledger.Waited> slowed = new ArrayList<>();
        List<Scored> steadyPolls = new ArrayList<>();
        List<Scored> slowedPolls = new ArrayList<>();
        int steadyVisitors = 0;
        for (Ledger.Waited w : ledger.waits()) {
            if (w.shown().isEmpty()) {
                continue;
            }
            (overlapsSlowdown(atJoin(w), w, slowStart, slowEnd) ? slowed : steady).add(w);
            boolean steadyRange = false;
            for (Ledger.Shown range : w.shown()) {
                boolean overlaps = overlapsSlowdown(range, w, slowStart, slowEnd);
                (overlaps ? slowedPolls : steadyPolls).add(score(range, w.offeredAtMillis()));
                steadyRange |= !overlaps;
            }
            steadyVisitors += steadyRange ? 1 : 0;
        }
        Map<String, Object> steadyFigures = shares(steady, steadyPolls);
        Map<String, Object> slowedFigures = shares(slowed, slowedPolls);
        figures.put("estimates.steady", steadyFigures);
        figures.put("estimates.duringSlowdown", slowedFigures);
        figures.put("estimates.notKnownYetAnswers", ledger.unknownEstimates());
        double share = (double) steadyFigures.get("atJoinInside");
        boolean enough = steady.size() >= ESTIMATE_MIN_SAMPLES;
        checks.add(new Check(
                "real wait inside the range shown at join, steady rate, >= 90 %",
                enough,
                share >= ESTIMATE_SHARE,
                String.format(
                        Locale.ROOT,
                        "%.1f %% of %d admitted visitors (%s early, %s late); ten minutes before admission %.1f %%%s",
                        share * 100,
                        steady.size(),
                        steadyFigures.get("atJoinEarly"),
                        steadyFigures.get("atJoinLate"),
                        (double) steadyFigures.get("tenMinutesInside") * 100,
                        enough ? "" : "; fewer than " + ESTIMATE_MIN_SAMPLES + " samples, reported, not a must")));
        // every range shown at a steady rate is judged, whatever its caveat: a range too wide to mean anything is not
        // shown (the status says "not known yet"), so none is inside by construction (issue #26)
        boolean enoughShown = steadyVisitors >= ESTIMATE_MIN_SAMPLES;
        double shownInside = (double) steadyFigures.get("pollsInside");
        double width = (double) steadyFigures.get("widthOverWaitOrMinuteMedian");
        String reported = enoughShown
                ? ""
                : "; fewer than " + ESTIMATE_MIN_SAMPLES + " admitted visitors shown a range, reported, not a must";
        checks.add(new Check(
                "real wait inside the range shown, every range shown at a steady rate, >= 90 %",
                enoughShown,
                steadyPolls.isEmpty() || shownInside >= ESTIMATE_SHARE,
                String.format(
                        Locale.ROOT,
                        "%.1f %% of %d ranges shown to %d admitted visitors (%s early, %s late); once the pace was"
                                + " measured %.1f %% of %s; %s status answers said \"not known yet\"%s",
                        shownInside * 100,
                        steadyPolls.size(),
                        steadyVisitors,
                        steadyFigures.get("pollsEarly"),
                        steadyFigures.get("pollsLate"),
                        (double) steadyFigures.get("measuredPollsInside") * 100,
                        steadyFigures.get("measuredPolls"),
                        ledger.unknownEstimates(),
                        reported)));
        checks.add(new Check(
                "median (upper - lower) / max(real wait, 60 s) of the ranges shown at a steady rate <= 1",
                enoughShown,
                steadyPolls.isEmpty() || width <= ESTIMATE_WIDTH,
                String.format(
                        Locale.ROOT,
                        "%.2f over %d ranges (at join %.2f over %d visitors)%s",
                        width,
                        steadyPolls.size(),
                        (double) steadyFigures.get("atJoinWidthOverWaitOrMinuteMedian"),
                        steady.size(),
                        reported)));
        checks.add(new Check(
                "real wait inside the range shown at join, during the injected slowdown",
                false,
                slowed.isEmpty() || (double) slowedFigures.get("atJoinInside") >= ESTIMATE_SHARE,
                String.format(
                        Locale.ROOT,
                        "%.1f %% of %d admitted visitors whose wait overlapped the slowdown; ten minutes before %.1f %%;"
                                + " every poll %.1f %% of %d",
                        (double) slowedFigures.get("atJoinInside") * 100,
                        slowed.size(),
                        (double) slowedFigures.get("tenMinutesInside") * 100,
                        (double) slowedFigures.get("pollsInside") * 100,
                        slowedPolls.size())));
    }

    /** After the slowdown the rate controller needs this long to climb back and the 30 s pace to forget it. */
    static final long SETTLE_MS = 30_000;

    /** Whether the wait from {@code range} to the offer overlapped the slowdown or its settling. */
    static boolean overlapsSlowdown(Ledger.Shown range, Ledger.Waited w, long slowStart, long slowEnd) {
        return slowStart > 0 && range.atMillis() < slowEnd + SETTLE_MS && w.offeredAtMillis() > slowStart;
    }

    private static Map<String, Object> shares(List<Ledger.Waited> waits, List<Scored> polls) {
        int inside = 0;
        int early = 0;
        int tenInside = 0;
        List<Double> widths = new ArrayList<>();
        List<Double> joinWidths = new ArrayList<>();
        Map<String, Integer> caveats = new TreeMap<>();
        for (Ledger.Waited w : waits) {
            Scored join = score(atJoin(w), w.offeredAtMillis());
            inside += join.inside() ? 1 : 0;
            early += join.early() ? 1 : 0;
            tenInside += score(tenMinutesBefore(w), w.offeredAtMillis()).inside() ? 1 : 0;
            widths.add(widthOverWait(join));
            joinWidths.add(widthOverWaitOrMinute(join));
            caveats.merge(join.range().caveat() == null ? "none" : join.range().caveat(), 1, Integer::sum);
        }
        int n = waits.size();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("admitted", n);
        out.put("atJoinInside", share(inside, n));
        out.put("atJoinEarly", early);
        out.put("atJoinLate", n - inside - early);
        out.put("tenMinutesInside", share(tenInside, n));
        out.put("atJoinWidthOverWaitMedian", median(widths));
        out.put("atJoinWidthOverWaitOrMinuteMedian", median(joinWidths));
        out.put("atJoinCaveats", caveats);
        List<Scored> measured = polls.stream()
                .filter(p -> !"MEASURING".equals(p.range().caveat()))
                .toList();
        out.put("polls", polls.size());
        out.put("pollsInside", share(polls.stream().filter(Scored::inside).count(), polls.size()));
        out.put("pollsEarly", polls.stream().filter(Scored::early).count());
        out.put(
                "pollsLate",
                polls.stream().filter(p -> !p.inside() && !p.early()).count());
        out.put(
                "widthOverWaitOrMinuteMedian",
                median(polls.stream().map(Verdict::widthOverWaitOrMinute).toList()));
        out.put("measuredPolls", measured.size());
        out.put(
                "measuredPollsInside",
                share(measured.stream().filter(Scored::inside).count(), measured.size()));
        out.put("measuredPollsEarly", measured.stream().filter(Scored::early).count());
        out.put(
                "measuredPollsLate",
                measured.stream().filter(p -> !p.inside() && !p.early()).count());
        out.put(
                "measuredWidthOverWaitMedian",
                median(measured.stream().map(Verdict::widthOverWait).toList()));
        return out;
    }

    /** (upper - lower) / max(real wait, 60 s): how wide a range was for the wait it promised (issue #26). */
    static double widthOverWaitOrMinute(Scored s) {
        return (s.range().max() - s.range().min()) / Math.max(WIDTH_FLOOR_SECONDS, s.waitSeconds());
    }

    private static double widthOverWait(Scored s) {
        return (double) (s.range().max() - s.range().min()) / Math.max(1, s.waitSeconds());
    }

    private static double share(long part, long whole) {
        return whole == 0 ? 0.0 : round((double) part / whole);
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return 0.0;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return round(sorted.get(sorted.size() / 2));
    }

    boolean passed() {
        return checks.stream().allMatch(c -> !c.must() || c.passed());
    }

    String text() {
        StringBuilder out = new StringBuilder("Waitroom on-sale verdict: ")
                .append(passed() ? "PASS" : "FAIL")
                .append('\n');
        figures.forEach((k, val) -> out.append(String.format(Locale.ROOT, "  %-40s %s%n", k, val)));
        for (Check c : checks) {
            out.append(String.format(
                    Locale.ROOT,
                    "  [%s] %s%s — %s%n",
                    c.passed() ? "ok" : (c.must() ? "FAIL" : "warn"),
                    c.name(),
                    c.must() ? "" : " (reported, not a must)",
                    c.detail()));
        }
        return out.toString();
    }

    String json() {
        StringBuilder out = new StringBuilder("{\"passed\":").append(passed()).append(",\"figures\":{");
        String sep = "";
        for (Map.Entry<String, Object> e : figures.entrySet()) {
            out.append(sep).append(quote(e.getKey())).append(':').append(jsonValue(e.getValue()));
            sep = ",";
        }
        out.append("},\"checks\":[");
        sep = "";
        for (Check c : checks) {
            out.append(sep)
                    .append("{\"name\":")
                    .append(quote(c.name()))
                    .append(",\"must\":")
                    .append(c.must())
                    .append(",\"passed\":")
                    .append(c.passed())
                    .append(",\"detail\":")
                    .append(quote(c.detail()))
                    .append('}');
            sep = ",";
        }
        return out.append("]}").toString();
    }

    /**
     * The checks for CI ({@code .ci/TestReport.java verdict}), in a form the JDK reads without a parser: a first line
     * {@code passed<TAB>true|false}, then a line per check, {@code must<TAB>passed<TAB>name<TAB>detail}; a tab or line
     * break inside a name or detail becomes a space.
     */
    String tsv() {
        StringBuilder out = new StringBuilder("passed\t").append(passed()).append('\n');
        for (Check c : checks) {
            out.append(c.must())
                    .append('\t')
                    .append(c.passed())
                    .append('\t')
                    .append(oneField(c.name()))
                    .append('\t')
                    .append(oneField(c.detail()))
                    .append('\n');
        }
        return out.toString();
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("verdict.txt"), text());
        Files.writeString(dir.resolve("verdict.json"), json());
        Files.writeString(dir.resolve("verdict.tsv"), tsv());
    }

    private static String oneField(String s) {
        return s.replaceAll("[\t\r\n]+", " ");
    }

    /**
     * Every range an admitted visitor was shown, one line each (visitor, shown at, min, max, caveat, offered at, in
     * epoch millis and seconds): the rehearsal's raw estimate data, for calibrating the band (docs/design/estimates.md).
     */
    static void writeEstimates(Ledger ledger, Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder("visitor,shownAtMillis,minSeconds,maxSeconds,caveat,offeredAtMillis\n");
        int visitor = 0;
        for (Ledger.Waited w : ledger.waits()) {
            for (Ledger.Shown s : w.shown()) {
                csv.append(visitor)
                        .append(',')
                        .append(s.atMillis())
                        .append(',')
                        .append(s.min())
                        .append(',')
                        .append(s.max())
                        .append(',')
                        .append(s.caveat() == null ? "" : s.caveat())
                        .append(',')
                        .append(w.offeredAtMillis())
                        .append('\n');
            }
            visitor++;
        }
        Files.writeString(dir.resolve("estimates.csv"), csv);
    }

    private static String jsonValue(Object value) {
        if (value instanceof Map<?, ?> map) {
            StringBuilder out = new StringBuilder("{");
            String sep = "";
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(sep)
                        .append(quote(String.valueOf(e.getKey())))
                        .append(':')
                        .append(jsonValue(e.getValue()));
                sep = ",";
            }
            return out.append('}').toString();
        }
        return value instanceof Number || value instanceof Boolean
                ? String.valueOf(value)
                : quote(String.valueOf(value));
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    static long percentile(List<Ledger.Timing> timings, double q) {
        if (timings.isEmpty()) {
            return 0;
        }
        long[] sorted =
                timings.stream().mapToLong(Ledger.Timing::millis).sorted().toArray();
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    }

    static long peakPerSecond(List<Ledger.Timing> timings) {
        Map<Long, Integer> perSecond = new TreeMap<>();
        timings.forEach(t -> perSecond.merge(t.endMillis() / 1000, 1, Integer::sum));
        return perSecond.values().stream().mapToLong(Integer::longValue).max().orElse(0);
    }

    private static double averagePerSecond(List<Ledger.Timing> timings) {
        if (timings.size() < 2) {
            return timings.size();
        }
        long first = timings.stream().mapToLong(Ledger.Timing::endMillis).min().orElse(0);
        long last = timings.stream().mapToLong(Ledger.Timing::endMillis).max().orElse(0);
        return timings.size() / Math.max(1.0, (last - first) / 1000.0);
    }

    private static double averageRate(List<Ledger.LiveSample> samples, long from, long to) {
        return samples.stream()
                .filter(s -> s.atMillis() >= from && (to == 0 || s.atMillis() < to))
                .mapToDouble(Ledger.LiveSample::admissionRate)
                .average()
                .orElse(0);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
