import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two phases of the capacity benchmark that wrk cannot run (deploy/bench/README.md): joins, because a join
 * answer sets two cookies and wrk's Lua sees only one header of a name; and the realistic-interval phase, because
 * every visitor keeps its own schedule. Run as a single-file program ({@code java BenchClient.java ...}); JDK only.
 *
 * <pre>
 * join       --url U --event E --visitors N --concurrency C [--max-seconds S] [--out FILE]
 *            [--warmup-url U2 --warmup-seconds W]
 * realistic  --url U --event E --visitors-file FILE --concurrency C --seconds S [--jitter 0.3] [--out FILE]
 * </pre>
 *
 * Visitor files hold one visitor per line: {@code index wr_vid wr_qt pollAfterSeconds} ({@code -} when unknown).
 * Each run ends with one line {@code BENCH key=value ...} for bench.sh.
 */
public class BenchClient {

    private static final Pattern POLL_AFTER = Pattern.compile("\"pollAfterSeconds\"\\s*:\\s*(\\d+)");

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            usage();
        }
        Map<String, String> opts = options(Arrays.copyOfRange(args, 1, args.length));
        int code = switch (args[0]) {
            case "join" -> join(opts);
            case "realistic" -> realistic(opts);
            default -> usage();
        };
        System.exit(code);
    }

    private static int usage() {
        System.err.println("usage: java BenchClient.java join|realistic --url U --event E ... (see the source)");
        System.exit(64);
        return 64;
    }

    /** N brand-new browsers, each one POST without cookies; keeps the cookies each answer sets. */
    private static int join(Map<String, String> o) throws Exception {
        String url = require(o, "url");
        String event = require(o, "event");
        int visitors = Integer.parseInt(require(o, "visitors"));
        int concurrency = Integer.parseInt(o.getOrDefault("concurrency", "64"));
        Path out = o.containsKey("out") ? Path.of(o.get("out")) : null;
        URI uri = URI.create(url + "/events/" + event + "/queue");
        HttpClient http = client(concurrency);
        if (o.containsKey("warmup-url")) {
            warmUp(
                    http,
                    URI.create(o.get("warmup-url") + "/events/" + event + "/queue"),
                    concurrency,
                    Long.parseLong(o.getOrDefault("warmup-seconds", "3")));
        }
        long maxNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(o.getOrDefault("max-seconds", "3600")));
        Visitor[] result = new Visitor[visitors];
        Histogram latency = new Histogram();
        Counts counts = new Counts();
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        long deadline = start + maxNanos;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < concurrency; t++) {
            workers.add(started(() -> {
                for (int i = next.getAndIncrement();
                        i < visitors && System.nanoTime() < deadline;
                        i = next.getAndIncrement()) {
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<String> response =
                                http.send(joinRequest(uri, i), HttpResponse.BodyHandlers.ofString());
                        latency.record(System.nanoTime() - t0);
                        counts.status(response.statusCode());
                        Visitor v = new Visitor(i);
                        v.absorb(response.headers(), response.body());
                        result[i] = v;
                    } catch (IOException ex) {
                        latency.record(System.nanoTime() - t0);
                        counts.errors.incrementAndGet();
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        long elapsed = System.nanoTime() - start;
        int recorded = 0;
        if (out != null) {
            try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.US_ASCII)) {
                for (Visitor v : result) {
                    if (v != null && v.vid != null) {
                        w.write(v.line());
                        w.newLine();
                        recorded++;
                    }
                }
            }
        }
        printBench(
                elapsed,
                latency,
                counts,
                String.format(Locale.ROOT, "unsent=%d recorded=%d", visitors - latency.count(), recorded));
        return 0;
    }

    /**
     * Every visitor polls at the server's {@code pollAfterSeconds} plus up to {@code jitter} more, as the waiting
     * page does, for S seconds; the first poll of each is spread over one interval so the phase starts steady.
     */
    private static int realistic(Map<String, String> o) throws Exception {
        String url = require(o, "url");
        String event = require(o, "event");
        Path file = Path.of(require(o, "visitors-file"));
        int concurrency = Integer.parseInt(o.getOrDefault("concurrency", "64"));
        long seconds = Long.parseLong(require(o, "seconds"));
        double jitter = Double.parseDouble(o.getOrDefault("jitter", "0.3"));
        Path out = o.containsKey("out") ? Path.of(o.get("out")) : null;
        URI uri = URI.create(url + "/events/" + event + "/queue/status");
        List<Visitor> visitors = read(file);
        if (visitors.size() <= concurrency) {
            throw new IllegalArgumentException("need more visitors than connections");
        }
        HttpClient http = client(concurrency);
        DelayQueue<Due> schedule = new DelayQueue<>();
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        for (Visitor v : visitors) {
            double interval = (v.pollAfter > 0 ? v.pollAfter : 30) * (1 + jitter);
            schedule.add(new Due(v, start + (long) (ThreadLocalRandom.current().nextDouble() * interval * 1e9)));
        }
        Counts counts = new Counts();
        Histogram latency = new Histogram();
        Histogram lateness = new Histogram();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < concurrency; t++) {
            workers.add(started(() -> {
                try {
                    while (true) {
                        long left = end - System.nanoTime();
                        if (left <= 0) {
                            return;
                        }
                        Due due = schedule.poll(left, TimeUnit.NANOSECONDS);
                        if (due == null) {
                            return;
                        }
                        Visitor v = due.visitor;
                        long t0 = System.nanoTime();
                        lateness.record(t0 - due.at);
                        HttpRequest request = HttpRequest.newBuilder(uri)
                                .timeout(TIMEOUT)
                                .header("X-Request-Id", requestId(v.index))
                                .header("X-Forwarded-For", forwardedFor(v.index))
                                .header("Cookie", v.cookieHeader())
                                .GET()
                                .build();
                        try {
                            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                            latency.record(System.nanoTime() - t0);
                            counts.status(response.statusCode());
                            counts.source(response.headers()
                                    .firstValue("X-Waitroom-Status-Source")
                                    .orElse("none"));
                            if (v.absorb(response.headers(), response.body())) {
                                counts.refreshed.incrementAndGet();
                            }
                        } catch (IOException ex) {
                            latency.record(System.nanoTime() - t0);
                            counts.errors.incrementAndGet();
                        }
                        double interval = (v.pollAfter > 0 ? v.pollAfter : 30)
                                * (1 + ThreadLocalRandom.current().nextDouble() * jitter);
                        schedule.add(new Due(v, System.nanoTime() + (long) (interval * 1e9)));
                    }
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        long elapsed = System.nanoTime() - start;
        if (out != null) {
            write(out, visitors);
        }
        printBench(
                elapsed,
                latency,
                counts,
                String.format(
                        Locale.ROOT,
                        "edge=%d queue=%d none=%d refreshed=%d late_p99_ms=%.1f late_max_ms=%.1f",
                        counts.edge.get(),
                        counts.queue.get(),
                        counts.none.get(),
                        counts.refreshed.get(),
                        lateness.percentile(99) / 1e6,
                        lateness.max() / 1e6));
        return 0;
    }

    /**
     * The same requests against the constant server for a few seconds, unmeasured, so that both measured runs
     * start with a compiled client rather than one of them paying for the JIT.
     */
    private static void warmUp(HttpClient http, URI uri, int concurrency, long seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < concurrency; t++) {
            workers.add(started(() -> {
                while (System.nanoTime() < end) {
                    try {
                        http.send(joinRequest(uri, next.getAndIncrement()), HttpResponse.BodyHandlers.ofString())
                                .headers()
                                .allValues("set-cookie");
                    } catch (IOException ex) {
                        // a warm-up failure shows in the measured run, if it matters
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
    }

    /** A brand-new browser's join: no cookie, its own address and request id. */
    private static HttpRequest joinRequest(URI uri, int index) {
        return HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header("X-Request-Id", requestId(index))
                .header("X-Forwarded-For", forwardedFor(index))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    /**
     * The one line bench.sh reads, as wrk's scripts print it too: {@code BENCH requests=... duration_s=... rps=...
     * p50_ms=... p99_ms=... non2xx=... errors=... <extra> statuses=...}; requests counts the answered ones.
     */
    private static void printBench(long elapsedNanos, Histogram latency, Counts counts, String extra) {
        long answered = latency.count() - counts.errors.get();
        double seconds = elapsedNanos / 1e9;
        System.out.printf(
                Locale.ROOT,
                "BENCH requests=%d duration_s=%.3f rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d"
                        + " errors=%d %s statuses=%s%n",
                answered,
                seconds,
                answered / seconds,
                latency.percentile(50) / 1e6,
                latency.percentile(99) / 1e6,
                counts.non2xx.get() + counts.errors.get(),
                counts.errors.get(),
                extra,
                counts.statuses());
    }

    private static Thread started(Runnable work) {
        Thread thread = new Thread(work);
        thread.start();
        return thread;
    }

    private static HttpClient client(int concurrency) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Echoed by the gateway when well formed ([A-Za-z0-9._:-]{8,100}); names the visitor in its access log. */
    static String requestId(int index) {
        return String.format("bench-v%06d", index);
    }

    /** A distinct client address per visitor from 198.18.0.0/15 (benchmarking range, RFC 2544). */
    static String forwardedFor(int index) {
        return "198." + (18 + ((index >> 16) & 1)) + "." + ((index >> 8) & 255) + "." + (index & 255);
    }

    private static List<Visitor> read(Path file) throws IOException {
        List<Visitor> visitors = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 2) {
                    continue;
                }
                Visitor v = new Visitor(Integer.parseInt(f[0]));
                v.vid = f[1];
                v.qt = f.length > 2 && !f[2].equals("-") ? f[2] : null;
                v.pollAfter = f.length > 3 && !f[3].equals("-") ? Integer.parseInt(f[3]) : 0;
                visitors.add(v);
            }
        }
        return visitors;
    }

    private static void write(Path file, List<Visitor> visitors) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.US_ASCII)) {
            for (Visitor v : visitors) {
                w.write(v.line());
                w.newLine();
            }
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String require(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected " + args[i]);
            }
            o.put(args[i].substring(2), args[i + 1]);
        }
        return o;
    }

    /** One browser: its cookies as the browser keeps them, and the server's last polling advice. */
    static final class Visitor {

        final int index;

        volatile String vid;

        volatile String qt;

        volatile int pollAfter;

        Visitor(int index) {
            this.index = index;
        }

        String cookieHeader() {
            return qt == null ? "wr_vid=" + vid : "wr_vid=" + vid + "; wr_qt=" + qt;
        }

        /** Applies every Set-Cookie like a browser (a later wr_qt replaces the old one); true if the ticket changed. */
        boolean absorb(HttpHeaders headers, String body) {
            boolean ticket = false;
            for (String c : headers.allValues("set-cookie")) {
                int eq = c.indexOf('=');
                int semi = c.indexOf(';');
                if (eq < 0) {
                    continue;
                }
                String name = c.substring(0, eq).trim();
                String value = c.substring(eq + 1, semi < 0 ? c.length() : semi).trim();
                boolean cleared = value.isEmpty() || c.toLowerCase(Locale.ROOT).contains("max-age=0");
                if (name.equals("wr_vid")) {
                    vid = cleared ? null : value;
                } else if (name.equals("wr_qt")) {
                    qt = cleared ? null : value;
                    ticket = true;
                }
            }
            if (body != null) {
                Matcher m = POLL_AFTER.matcher(body);
                if (m.find()) {
                    pollAfter = Integer.parseInt(m.group(1));
                }
            }
            return ticket;
        }

        String line() {
            return index + " " + vid + " " + (qt == null ? "-" : qt) + " " + (pollAfter > 0 ? pollAfter : "-");
        }
    }

    record Due(Visitor visitor, long at) implements Delayed {

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(at - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(at, ((Due) other).at);
        }
    }

    static final class Counts {

        final AtomicLong edge = new AtomicLong();

        final AtomicLong queue = new AtomicLong();

        final AtomicLong none = new AtomicLong();

        final AtomicLong non2xx = new AtomicLong();

        final AtomicLong errors = new AtomicLong();

        final AtomicLong refreshed = new AtomicLong();

        private final Map<Integer, AtomicLong> byStatus = new java.util.concurrent.ConcurrentHashMap<>();

        void status(int status) {
            byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
            if (status < 200 || status > 299) {
                non2xx.incrementAndGet();
            }
        }

        void source(String source) {
            (source.equals("edge") ? edge : source.equals("queue") ? queue : none).incrementAndGet();
        }

        String statuses() {
            StringBuilder b = new StringBuilder();
            new java.util.TreeMap<>(byStatus)
                    .forEach((k, v) -> b.append(b.isEmpty() ? "" : ",")
                            .append(k)
                            .append(':')
                            .append(v.get()));
            return b.isEmpty() ? "-" : b.toString();
        }
    }

    /** Log-linear buckets of 1/64 of each power of two, in nanoseconds: under 1.6 % error, no allocation per sample. */
    static final class Histogram {

        private static final int SUB = 64;

        private final AtomicLongArray buckets = new AtomicLongArray(64 * SUB);

        private final AtomicLong count = new AtomicLong();

        private final AtomicLong max = new AtomicLong();

        void record(long nanos) {
            long v = Math.max(0, nanos);
            buckets.incrementAndGet(index(v));
            count.incrementAndGet();
            max.accumulateAndGet(v, Math::max);
        }

        long count() {
            return count.get();
        }

        double max() {
            return max.get();
        }

        double percentile(double p) {
            long total = count.get();
            if (total == 0) {
                return 0;
            }
            long rank = (long) Math.ceil(p / 100 * total);
            long seen = 0;
            for (int i = 0; i < buckets.length(); i++) {
                seen += buckets.get(i);
                if (seen >= rank) {
                    return upper(i);
                }
            }
            return max.get();
        }

        private static int index(long v) {
            if (v < SUB) {
                return (int) v;
            }
            int exp = 63 - Long.numberOfLeadingZeros(v);
            int shift = exp - 6;
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
}
