import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the opening minute records and how it reports it (deploy/bench/README.md, "The opening minute"): per-second
 * counts and latency histograms while the phase runs ({@link Recorder}), their 5-second windows ({@link Window}), and
 * the report as JSON and as one self-contained HTML page with the rates over time as an inline SVG chart (no script,
 * no font, nothing fetched). JDK only, so deploy's tests compile and check it without the client's libraries.
 */
final class OpeningReport {

    private OpeningReport() {}

    /** Log-linear buckets, 32 per power of two (under 3.2 % error), in nanoseconds; no allocation per sample. */
    static final class Histogram {

        private static final int SUB = 32;

        private static final int SUB_BITS = 5;

        private final AtomicLongArray buckets = new AtomicLongArray(64 * SUB);

        private final AtomicLong count = new AtomicLong();

        private final AtomicLong max = new AtomicLong();

        void record(long nanos) {
            long v = Math.max(0, nanos);
            buckets.incrementAndGet(index(v));
            count.incrementAndGet();
            max.accumulateAndGet(v, Math::max);
        }

        void addAll(Histogram other) {
            for (int i = 0; i < buckets.length(); i++) {
                long n = other.buckets.get(i);
                if (n != 0) {
                    buckets.addAndGet(i, n);
                }
            }
            count.addAndGet(other.count.get());
            max.accumulateAndGet(other.max.get(), Math::max);
        }

        long count() {
            return count.get();
        }

        /** Nearest rank, as the bucket's upper bound (never flattering); 0 for no samples. */
        double percentileMillis(double p) {
            long total = count.get();
            if (total == 0) {
                return 0;
            }
            long rank = Math.max(1, (long) Math.ceil(p / 100 * total));
            long seen = 0;
            for (int i = 0; i < buckets.length(); i++) {
                seen += buckets.get(i);
                if (seen >= rank) {
                    return Math.min(upper(i), max.get()) / 1e6;
                }
            }
            return max.get() / 1e6;
        }

        double maxMillis() {
            return max.get() / 1e6;
        }

        private static int index(long v) {
            if (v < SUB) {
                return (int) v;
            }
            int exp = 63 - Long.numberOfLeadingZeros(v);
            int shift = exp - SUB_BITS;
            return (shift + 1) * SUB + (int) ((v >> shift) - SUB);
        }

        private static double upper(int i) {
            if (i < SUB) {
                return i;
            }
            int shift = i / SUB - 1;
            long sub = i % SUB + SUB;
            return (double) ((sub + 1) << shift);
        }
    }

    /** One second of the phase. Joins count where they were due; answers count where they arrived. */
    static final class Second {
        final LongAdder offered = new LongAdder();
        final LongAdder joined = new LongAdder();
        final LongAdder refused = new LongAdder();
        final LongAdder lost = new LongAdder();
        final LongAdder edge = new LongAdder();
        final LongAdder forwarded = new LongAdder();
        final LongAdder pollFailed = new LongAdder();
        final Histogram joinLatency = new Histogram();
        final Histogram pollLatency = new Histogram();
    }

    /**
     * The counts of one run, thread-safe: the scheduler records what it sends, the client's event loops what comes
     * back. Times are nanoseconds from the start of the phase; anything later than the last second counts there.
     */
    static final class Recorder {

        private final Second[] seconds;

        private final Map<String, LongAdder> refusedBy = new ConcurrentHashMap<>();

        private final Map<String, LongAdder> lostBy = new ConcurrentHashMap<>();

        private final Map<String, LongAdder> pollFailedBy = new ConcurrentHashMap<>();

        Recorder(int length) {
            seconds = new Second[Math.max(1, length)];
            for (int i = 0; i < seconds.length; i++) {
                seconds[i] = new Second();
            }
        }

        int length() {
            return seconds.length;
        }

        /** The last second in which a join was due or answered (0 without any). */
        int lastJoinSecond() {
            for (int i = seconds.length - 1; i > 0; i--) {
                Second s = seconds[i];
                if (s.offered.sum() + s.joined.sum() + s.refused.sum() + s.lost.sum() > 0) {
                    return i;
                }
            }
            return 0;
        }

        private Second at(long nanos) {
            return seconds[(int) Math.max(0, Math.min(seconds.length - 1, nanos / 1_000_000_000L))];
        }

        void joinOffered(long dueNanos) {
            at(dueNanos).offered.increment();
        }

        /** A join answered 2xx; latency from when it was due (open loop: the client's own queueing counts). */
        void joinAnswered(long dueNanos, long answeredNanos) {
            at(answeredNanos).joined.increment();
            at(dueNanos).joinLatency.record(answeredNanos - dueNanos);
        }

        /** A join answered 4xx: refused, by its problem type. */
        void joinRefused(long dueNanos, long answeredNanos, String problemType) {
            at(answeredNanos).refused.increment();
            at(dueNanos).joinLatency.record(answeredNanos - dueNanos);
            refusedBy.computeIfAbsent(problemType, k -> new LongAdder()).increment();
        }

        /** A join answered 5xx or never answered (connection error, time-out): lost, with why. */
        void joinLost(long dueNanos, long nowNanos, String why) {
            at(nowNanos).lost.increment();
            lostBy.computeIfAbsent(why, k -> new LongAdder()).increment();
        }

        /** A status poll answered 2xx, at the edge (the gateway alone) or forwarded to the queue-service. */
        void pollAnswered(long dueNanos, long answeredNanos, boolean atEdge) {
            Second s = at(answeredNanos);
            (atEdge ? s.edge : s.forwarded).increment();
            at(dueNanos).pollLatency.record(answeredNanos - dueNanos);
        }

        void pollFailed(long dueNanos, long nowNanos, String why) {
            at(nowNanos).pollFailed.increment();
            pollFailedBy.computeIfAbsent(why, k -> new LongAdder()).increment();
        }

        Map<String, Long> refusedByType() {
            return sorted(refusedBy);
        }

        Map<String, Long> lostByReason() {
            return sorted(lostBy);
        }

        Map<String, Long> pollFailuresByReason() {
            return sorted(pollFailedBy);
        }

        private static Map<String, Long> sorted(Map<String, LongAdder> counts) {
            Map<String, Long> out = new TreeMap<>();
            counts.forEach((k, v) -> out.put(k, v.sum()));
            return out;
        }

        /** The phase in windows of {@code width} seconds (the last one may be shorter), up to the last second. */
        List<Window> windows(int width, int upToSecond) {
            List<Window> out = new ArrayList<>();
            int end = Math.min(upToSecond, seconds.length);
            for (int from = 0; from < end; from += width) {
                out.add(window(from, Math.min(end, from + width)));
            }
            return out;
        }

        Window window(int from, int to) {
            long offered = 0, joined = 0, refused = 0, lost = 0, edge = 0, forwarded = 0, pollFailed = 0;
            Histogram join = new Histogram();
            Histogram poll = new Histogram();
            for (int i = from; i < to; i++) {
                Second s = seconds[i];
                offered += s.offered.sum();
                joined += s.joined.sum();
                refused += s.refused.sum();
                lost += s.lost.sum();
                edge += s.edge.sum();
                forwarded += s.forwarded.sum();
                pollFailed += s.pollFailed.sum();
                join.addAll(s.joinLatency);
                poll.addAll(s.pollLatency);
            }
            return new Window(
                    from,
                    to,
                    offered,
                    joined,
                    refused,
                    lost,
                    join.percentileMillis(50),
                    join.percentileMillis(99),
                    edge,
                    forwarded,
                    pollFailed,
                    poll.percentileMillis(50),
                    poll.percentileMillis(99),
                    join,
                    poll);
        }

        /** One value per second, for the chart. */
        long[] series(String what) {
            long[] out = new long[seconds.length];
            for (int i = 0; i < seconds.length; i++) {
                Second s = seconds[i];
                out[i] = switch (what) {
                    case "offered" -> s.offered.sum();
                    case "joined" -> s.joined.sum();
                    case "edge" -> s.edge.sum();
                    case "forwarded" -> s.forwarded.sum();
                    case "failed" -> s.refused.sum() + s.lost.sum();
                    default -> throw new IllegalArgumentException(what);
                };
            }
            return out;
        }
    }

    /** A window of the phase: counts, rates and latency percentiles (ms) of the joins due and polls answered in it. */
    record Window(
            int fromSecond,
            int toSecond,
            long offered,
            long joined,
            long refused,
            long lost,
            double joinP50,
            double joinP99,
            long edge,
            long forwarded,
            long pollFailed,
            double pollP50,
            double pollP99,
            Histogram joinLatency,
            Histogram pollLatency) {

        double seconds() {
            return Math.max(1, toSecond - fromSecond);
        }

        double offeredPerSecond() {
            return offered / seconds();
        }

        double joinedPerSecond() {
            return joined / seconds();
        }

        double pollsPerSecond() {
            return (edge + forwarded) / seconds();
        }

        /** Edge answers over answered polls, in percent; NaN without polls. */
        double edgeShare() {
            return edge + forwarded == 0 ? Double.NaN : 100.0 * edge / (edge + forwarded);
        }

        Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("fromSecond", fromSecond);
            m.put("toSecond", toSecond);
            m.put("joinsOffered", offered);
            m.put("joinsOfferedPerSecond", round(offeredPerSecond()));
            m.put("joinsAnswered", joined);
            m.put("joinsAchievedPerSecond", round(joinedPerSecond()));
            m.put("joinsRefused", refused);
            m.put("joinsLost", lost);
            m.put("joinP50Ms", round(joinP50));
            m.put("joinP99Ms", round(joinP99));
            m.put("pollsAtEdge", edge);
            m.put("pollsForwarded", forwarded);
            m.put("pollsFailed", pollFailed);
            m.put("pollsPerSecond", round(pollsPerSecond()));
            m.put("edgeSharePercent", Double.isNaN(edgeShare()) ? null : round(edgeShare()));
            m.put("statusP50Ms", round(pollP50));
            m.put("statusP99Ms", round(pollP99));
            return m;
        }
    }

    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    // --- JSON --------------------------------------------------------------------------------------------------------

    /** Maps, lists, strings, numbers, booleans and null as JSON; NaN and infinities as null. */
    static String json(Object value) {
        StringBuilder b = new StringBuilder();
        json(b, value, 0);
        return b.append('\n').toString();
    }

    private static void json(StringBuilder b, Object v, int depth) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            int n = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(n++ == 0 ? "" : ",").append('\n').append("  ".repeat(depth + 1));
                string(b, String.valueOf(e.getKey()));
                b.append(": ");
                json(b, e.getValue(), depth + 1);
            }
            b.append(n == 0 ? "" : "\n" + "  ".repeat(depth)).append('}');
        } else if (v instanceof List<?> l) {
            boolean flat = l.stream().noneMatch(x -> x instanceof Map || x instanceof List);
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                b.append(i == 0 ? "" : ",");
                if (!flat) {
                    b.append('\n').append("  ".repeat(depth + 1));
                }
                json(b, l.get(i), depth + 1);
            }
            b.append(flat || l.isEmpty() ? "" : "\n" + "  ".repeat(depth)).append(']');
        } else if (v instanceof long[] a) {
            List<Object> l = new ArrayList<>();
            for (long x : a) {
                l.add(x);
            }
            json(b, l, depth);
        } else if (v instanceof Double d) {
            b.append(d.isNaN() || d.isInfinite() ? "null" : String.valueOf(d));
        } else if (v instanceof Float f) {
            json(b, f.doubleValue(), depth);
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else {
            string(b, String.valueOf(v));
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    // --- HTML --------------------------------------------------------------------------------------------------------

    /** A line of the chart: its legend, its colour and one value per second. */
    record Series(String name, String colour, long[] perSecond) {}

    /**
     * The report as one XHTML page, readable offline and as XML: a title, the verdict, then for each section of
     * {@code sections} a table of its entries (a nested map is a row of its own; a list of maps is a table with a
     * column per key), and the chart of {@code series} per second. Nothing in it is fetched: styles are inline, the
     * chart is SVG in the page, fonts are the reader's own.
     */
    static String html(String title, String verdict, boolean pass, Map<String, Object> sections, List<Series> series) {
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
                .append("<meta charset=\"utf-8\"/>\n<title>")
                .append(escape(title))
                .append("</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:1.5em;color:#1a1a1a}\n")
                .append("div.t{overflow-x:auto}\n")
                .append("table{border-collapse:collapse;margin:.5em 0 1.5em}\n")
                .append("td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right;font-size:.9em}\n")
                .append("th{background:#eee}td.k{text-align:left}\n")
                .append(".pass{color:#0a6b0a}.fail{color:#b00020}\n")
                .append("</style>\n</head>\n<body>\n<h1>")
                .append(escape(title))
                .append("</h1>\n<p class=\"")
                .append(pass ? "pass" : "fail")
                .append("\"><strong>")
                .append(escape(verdict))
                .append("</strong></p>\n<h2>Rates per second</h2>\n")
                .append(chart(series))
                .append('\n');
        for (Map.Entry<String, Object> section : sections.entrySet()) {
            b.append("<h2>").append(escape(section.getKey())).append("</h2>\n<div class=\"t\">\n");
            table(b, section.getValue());
            b.append("</div>\n");
        }
        return b.append("</body>\n</html>\n").toString();
    }

    private static void table(StringBuilder b, Object value) {
        if (value instanceof List<?> rows && !rows.isEmpty() && rows.get(0) instanceof Map<?, ?> first) {
            b.append("<table>\n<tr>");
            for (Object k : first.keySet()) {
                b.append("<th>").append(escape(String.valueOf(k))).append("</th>");
            }
            b.append("</tr>\n");
            for (Object row : rows) {
                b.append("<tr>");
                for (Object k : first.keySet()) {
                    b.append("<td>")
                            .append(escape(text(((Map<?, ?>) row).get(k))))
                            .append("</td>");
                }
                b.append("</tr>\n");
            }
            b.append("</table>\n");
        } else if (value instanceof Map<?, ?> m) {
            b.append("<table>\n");
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append("<tr><td class=\"k\">")
                        .append(escape(String.valueOf(e.getKey())))
                        .append("</td><td class=\"k\">")
                        .append(escape(text(e.getValue())))
                        .append("</td></tr>\n");
            }
            b.append("</table>\n");
        } else {
            b.append("<p>").append(escape(text(value))).append("</p>\n");
        }
    }

    private static String text(Object v) {
        if (v == null) {
            return "-";
        }
        if (v instanceof Double d) {
            return d.isNaN() ? "-" : String.format(Locale.ROOT, "%,.2f", d);
        }
        if (v instanceof Long || v instanceof Integer) {
            return String.format(Locale.ROOT, "%,d", ((Number) v).longValue());
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder b = new StringBuilder();
            m.forEach((k, x) ->
                    b.append(b.isEmpty() ? "" : ", ").append(k).append(' ').append(text(x)));
            return b.isEmpty() ? "none" : b.toString();
        }
        return String.valueOf(v);
    }

    static final int CHART_WIDTH = 900;

    static final int CHART_HEIGHT = 320;

    /** The series as polylines over one shared axis of requests per second, with gridlines and a legend. */
    static String chart(List<Series> series) {
        int left = 70, right = 20, top = 20, bottom = 50;
        int w = CHART_WIDTH - left - right, h = CHART_HEIGHT - top - bottom;
        int points = series.stream().mapToInt(s -> s.perSecond().length).max().orElse(1);
        long peak = 1;
        for (Series s : series) {
            for (long v : s.perSecond()) {
                peak = Math.max(peak, v);
            }
        }
        long step = niceStep(peak / 5.0);
        long top5 = ((peak + step - 1) / step) * step;
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                        + " role=\"img\" aria-label=\"requests per second over the phase\">\n",
                CHART_WIDTH,
                CHART_HEIGHT,
                CHART_WIDTH,
                CHART_HEIGHT));
        b.append("<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
        for (long v = 0; v <= top5; v += step) {
            double y = top + h - (double) v / top5 * h;
            b.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%,d</text>\n",
                    left,
                    y,
                    left + w,
                    y,
                    left - 6,
                    y + 4,
                    v));
        }
        int xStep = Math.max(1, (int) niceStep(points / 10.0));
        for (int s = 0; s <= points; s += xStep) {
            double x = left + (double) s / Math.max(1, points) * w;
            b.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d s</text>\n",
                    x,
                    top,
                    x,
                    top + h,
                    x,
                    top + h + 16,
                    s));
        }
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"14\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 14 %d)\""
                        + " text-anchor=\"middle\">per second</text>\n",
                top + h / 2,
                top + h / 2));
        int legendX = left;
        for (Series s : series) {
            StringBuilder pts = new StringBuilder();
            long[] v = s.perSecond();
            for (int i = 0; i < v.length; i++) {
                // each second's count drawn at the middle of its second
                double x = left + (i + 0.5) / Math.max(1, points) * w;
                double y = top + h - (double) v[i] / top5 * h;
                pts.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
            }
            b.append("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"")
                    .append(s.colour())
                    .append("\" points=\"")
                    .append(pts)
                    .append("\"><title>")
                    .append(escape(s.name()))
                    .append("</title></polyline>\n");
            b.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"4\" fill=\"%s\"/>"
                            + "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n",
                    legendX,
                    CHART_HEIGHT - 14,
                    s.colour(),
                    legendX + 16,
                    CHART_HEIGHT - 9,
                    escape(s.name())));
            legendX += 24 + 7 * s.name().length();
        }
        return b.append("</svg>").toString();
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static long niceStep(double raw) {
        long p = 1;
        while (true) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * p >= raw) {
                    return m * p;
                }
            }
            p *= 10;
        }
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return b.toString();
    }
}
