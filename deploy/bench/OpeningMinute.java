import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * The opening minute (deploy/bench/README.md, "The opening minute"): N brand-new browsers join a freshly started stack
 * over S seconds on {@link OpeningSchedule}'s open-loop schedule, each then polls its status at the
 * {@code pollAfterSeconds} it is told plus jitter until the phase ends or it is told of its offer (the page then
 * leaves for the shop; the claim is not part of the phase); then the same client's rate against a
 * constant-answer nginx. Writes the figures as JSON and as a self-contained HTML page ({@link OpeningReport}), prints
 * them, and exits 0 only when every join was answered 2xx (none lost, none refused).
 *
 * <p>Reactor Netty's non-blocking client on one event-loop thread (the gateway's own libraries, which bench.sh takes
 * from the gateway's jar), a scheduler thread that sends each request at its time, and a 10 ms timer wheel for the
 * polls: per request a few small objects, so the load generator leaves the two cores to the stack and reports how
 * much of them it took.
 *
 * <pre>
 * java -cp classes:lib/* OpeningMinute --url U --event E [--data-dir D] [--visitors 200000] [--seconds 60]
 *      [--connections 512] [--jitter 0.3] [--seed 29] [--client-threads 1] [--nginx-url U2] [--nginx-seconds 10]
 *      [--nginx-connections 64] [--meta FILE] [--out PREFIX]
 * </pre>
 */
public class OpeningMinute {

    private static final Pattern POLL_AFTER = Pattern.compile("\"pollAfterSeconds\"\\s*:\\s*(\\d+)");

    private static final Pattern OFFERED = Pattern.compile("\"state\"\\s*:\\s*\"OFFERED\"");

    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]*)\"");

    private static final long SLOT_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** How long joins still in flight when the schedule ends may take before they count as lost. */
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(35);

    private final Map<String, String> o;
    private final int visitors;
    private final int seconds;
    private final double jitter;
    private final String joinPath;
    private final String statusPath;
    private final HttpClient gateway;
    private final HttpClient polls;
    private final OpeningReport.Recorder recorder;
    private final OpeningReport.Histogram lateness = new OpeningReport.Histogram();

    // one browser per index: its cookies as a browser keeps them, the server's polling advice, its next poll
    private final String[] vid;
    private final String[] qt;
    private final int[] pollAfter;
    private final long[] due;
    private final ConcurrentLinkedQueue<Integer>[] wheel;

    private final AtomicInteger joinsInFlight = new AtomicInteger();
    // 1 once a join's outcome is counted: its answer, its error, or lost when the drain ends, whichever comes first
    private final AtomicIntegerArray settled;
    private final AtomicLong joinedExisting = new AtomicLong();
    private final AtomicLong joinedWithoutTicket = new AtomicLong();
    private final AtomicLong pollsSent = new AtomicLong();

    /** Browsers that were told of their offer and left the waiting page for the shop, as the page does. */
    private final AtomicLong offersTaken = new AtomicLong();

    private final Map<String, AtomicLong> joinStatuses = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, AtomicLong> pollStatuses = new java.util.concurrent.ConcurrentHashMap<>();

    private volatile long start;
    private volatile long end;

    @SuppressWarnings("unchecked")
    OpeningMinute(Map<String, String> o, HttpClient gateway, HttpClient polls) {
        this.o = o;
        this.visitors = Integer.parseInt(o.getOrDefault("visitors", "200000"));
        this.seconds = Integer.parseInt(o.getOrDefault("seconds", "60"));
        this.jitter = Double.parseDouble(o.getOrDefault("jitter", "0.3"));
        String event = require(o, "event");
        this.joinPath = "/events/" + event + "/queue";
        this.statusPath = "/events/" + event + "/queue/status";
        this.gateway = gateway;
        this.polls = polls;
        this.recorder = new OpeningReport.Recorder(seconds + 60);
        this.vid = new String[visitors];
        this.qt = new String[visitors];
        this.pollAfter = new int[visitors];
        this.due = new long[visitors];
        this.settled = new AtomicIntegerArray(visitors);
        this.wheel = new ConcurrentLinkedQueue[(seconds + 1) * 100];
        for (int i = 0; i < wheel.length; i++) {
            wheel[i] = new ConcurrentLinkedQueue<>();
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        int connections = Integer.parseInt(o.getOrDefault("connections", "512"));
        LoopResources loops =
                LoopResources.create("opening", Integer.parseInt(o.getOrDefault("client-threads", "1")), true);
        ConnectionProvider pool = pool("joins", connections);
        // polls on connections of their own: a browser's poll never waits behind another browser's join
        ConnectionProvider pollPool = pool("polls", connections);
        HttpClient gateway = client(pool, loops, require(o, "url"));
        OpeningMinute run = new OpeningMinute(o, gateway, client(pollPool, loops, require(o, "url")));
        int code = run.run(pool, loops);
        pool.disposeLater().block(Duration.ofSeconds(10));
        pollPool.disposeLater().block(Duration.ofSeconds(10));
        loops.disposeLater().block(Duration.ofSeconds(10));
        System.exit(code);
    }

    private static ConnectionProvider pool(String name, int connections) {
        return ConnectionProvider.builder(name)
                .maxConnections(connections)
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(TIMEOUT)
                // below the gateway's idle timeout (60 s), so a pooled connection is never reused as it closes
                .maxIdleTime(Duration.ofSeconds(50))
                .fifo()
                .build();
    }

    private static HttpClient client(ConnectionProvider pool, LoopResources loops, String url) {
        return HttpClient.create(pool)
                .runOn(loops)
                .baseUrl(url)
                .responseTimeout(TIMEOUT)
                .compress(false)
                .keepAlive(true);
    }

    private int run(ConnectionProvider pool, LoopResources loops) throws Exception {
        Path dataDir = Path.of(o.getOrDefault("data-dir", "/nonexistent"));
        Stack stack = Stack.read(dataDir);
        String nginxUrl = o.get("nginx-url");
        HttpClient nginx = nginxUrl == null ? null : client(pool, loops, nginxUrl);
        int nginxConnections = Integer.parseInt(o.getOrDefault("nginx-connections", "64"));
        if (nginx != null) {
            // the phase's own code (schedule, joins, cookies, polls, the wheel) compiled before it meets the gateway
            log("warming the client up: the same phase with 6,000 browsers over 8 s against nginx, unmeasured ...");
            Map<String, String> small = new HashMap<>(o);
            small.put("visitors", "6000");
            small.put("seconds", "8");
            new OpeningMinute(small, nginx, nginx).phase(OpeningSchedule.arrivalsNanos(6000, 8, 1));
        }
        long[] arrivals =
                OpeningSchedule.arrivalsNanos(visitors, seconds, Long.parseLong(o.getOrDefault("seed", "29")));

        Map<String, Object> before = stack.sample();
        Map<String, Long> pollsBefore = stack.pollMetrics();
        String loadStart = loadAverage();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        log(String.format(
                Locale.ROOT,
                "phase: %,d browsers over %d s (%,d in the first %.1f s), polling at pollAfterSeconds + up to %.0f %%",
                visitors,
                seconds,
                OpeningSchedule.rushVisitors(visitors),
                OpeningSchedule.rushNanos(seconds) / 1e9,
                jitter * 100));

        int unanswered = phase(arrivals);
        long phaseEnd = System.nanoTime();
        long cpu1 = os.getProcessCpuTime();
        String loadEnd = loadAverage();
        Map<String, Object> after = stack.sample();
        Map<String, Long> pollsAfter = stack.pollMetrics();

        Map<String, Object> nginxFigures = null;
        if (nginx != null) {
            log("nginx: " + o.getOrDefault("nginx-seconds", "10") + " s of joins, closed loop, " + nginxConnections
                    + " in flight, same client ...");
            closedLoop(nginx, nginxConnections, 2, null);
            OpeningReport.Histogram latency = new OpeningReport.Histogram();
            long n = closedLoop(
                    nginx, nginxConnections, Integer.parseInt(o.getOrDefault("nginx-seconds", "10")), latency);
            double rps = n / Double.parseDouble(o.getOrDefault("nginx-seconds", "10"));
            nginxFigures = new LinkedHashMap<>();
            nginxFigures.put("url", nginxUrl);
            nginxFigures.put("inFlight", nginxConnections);
            nginxFigures.put("requestsPerSecond", OpeningReport.round(rps));
            nginxFigures.put("p50Ms", OpeningReport.round(latency.percentileMillis(50)));
            nginxFigures.put("p99Ms", OpeningReport.round(latency.percentileMillis(99)));
        }

        Figures f = new Figures(
                before,
                after,
                pollsBefore,
                pollsAfter,
                loadStart,
                loadEnd,
                (cpu1 - cpu0) / 1e9,
                (phaseEnd - start) / 1e9,
                unanswered,
                nginxFigures);
        return report(f);
    }

    /** The phase: every join at its time, polls until the end, then the answers still due; returns joins lost so. */
    private int phase(long[] arrivals) throws InterruptedException {
        start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        end = start + TimeUnit.SECONDS.toNanos(seconds);
        schedule(arrivals);
        long drainUntil = System.nanoTime() + DRAIN_NANOS;
        while (joinsInFlight.get() > 0 && System.nanoTime() < drainUntil) {
            Thread.sleep(20);
        }
        // what is still unanswered now is lost, and an answer arriving later no longer counts
        int unanswered = 0;
        for (int i = 0; i < visitors; i++) {
            if (settled.compareAndSet(i, 0, 1)) {
                unanswered++;
                recorder.joinLost(arrivals[i], System.nanoTime() - start, "unanswered 35 s after the last was due");
            }
        }
        return unanswered;
    }

    /** Sends every join at its time and every poll when it is due, until the phase ends. The scheduler thread. */
    private void schedule(long[] arrivals) {
        int next = 0;
        int slot = 0;
        while (true) {
            long now = System.nanoTime() - start;
            if (now >= end - start) {
                // a scheduler running late still sends every join: a join not sent would vanish from the figures
                for (; next < arrivals.length; next++) {
                    join(next, arrivals[next]);
                }
                return;
            }
            while (next < arrivals.length && arrivals[next] <= now) {
                join(next, arrivals[next]);
                next++;
            }
            int current = (int) Math.min(wheel.length - 1, now / SLOT_NANOS);
            for (; slot <= current; slot++) {
                for (Integer v = wheel[slot].poll(); v != null; v = wheel[slot].poll()) {
                    poll(v);
                }
            }
            long wake = Math.min(next < arrivals.length ? arrivals[next] : Long.MAX_VALUE, slot * SLOT_NANOS);
            long sleep = Math.min(wake - (System.nanoTime() - start), 1_000_000);
            if (sleep > 20_000) {
                LockSupport.parkNanos(sleep);
            }
        }
    }

    private void join(int i, long dueAt) {
        recorder.joinOffered(dueAt);
        long sent = System.nanoTime() - start;
        lateness.record(sent - dueAt);
        joinsInFlight.incrementAndGet();
        String address = forwardedFor(i);
        gateway.headers(h -> h.set("X-Forwarded-For", address)
                        .set("X-Request-Id", "opening-j" + i)
                        .set("Content-Type", "application/json"))
                .post()
                .uri(joinPath)
                .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(EMPTY_OBJECT)))
                .responseSingle((res, body) -> body.asString(StandardCharsets.UTF_8)
                        .defaultIfEmpty("")
                        .map(text -> new Answer(
                                res.status().code(),
                                res.responseHeaders().getAll("set-cookie"),
                                res.responseHeaders().get("X-Waitroom-Status-Source"),
                                text)))
                .subscribe(a -> joined(i, dueAt, a), error -> {
                    joinsInFlight.decrementAndGet();
                    if (!settled.compareAndSet(i, 0, 1)) {
                        return;
                    }
                    count(joinStatuses, "no answer");
                    recorder.joinLost(dueAt, System.nanoTime() - start, "no answer (" + reason(error) + ")");
                });
    }

    private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.US_ASCII);

    private void joined(int i, long dueAt, Answer a) {
        joinsInFlight.decrementAndGet();
        if (!settled.compareAndSet(i, 0, 1)) {
            return;
        }
        long now = System.nanoTime() - start;
        count(joinStatuses, String.valueOf(a.status));
        if (a.status >= 200 && a.status < 300) {
            absorb(i, a);
            recorder.joinAnswered(dueAt, now);
            if (a.status == 200) {
                joinedExisting.incrementAndGet();
            }
            if (qt[i] == null) {
                joinedWithoutTicket.incrementAndGet();
            }
            next(i, now);
        } else if (a.status >= 400 && a.status < 500) {
            recorder.joinRefused(dueAt, now, a.status + " " + problemType(a.body));
        } else {
            recorder.joinLost(dueAt, now, a.status + " " + problemType(a.body));
        }
    }

    private void poll(int i) {
        long dueAt = due[i];
        String cookie = vid[i] == null ? qt[i] : qt[i] == null ? vid[i] : vid[i] + "; " + qt[i];
        String address = forwardedFor(i);
        pollsSent.incrementAndGet();
        polls.headers(h -> h.set("X-Forwarded-For", address)
                        .set("X-Request-Id", "opening-p" + i)
                        .set("Cookie", cookie == null ? "" : cookie))
                .get()
                .uri(statusPath)
                .responseSingle((res, body) -> body.asString(StandardCharsets.UTF_8)
                        .defaultIfEmpty("")
                        .map(text -> new Answer(
                                res.status().code(),
                                res.responseHeaders().getAll("set-cookie"),
                                res.responseHeaders().get("X-Waitroom-Status-Source"),
                                text)))
                .subscribe(a -> polled(i, dueAt, a), error -> {
                    long now = System.nanoTime() - start;
                    count(pollStatuses, "no answer");
                    recorder.pollFailed(dueAt, now, "no answer (" + reason(error) + ")");
                    next(i, now);
                });
    }

    private void polled(int i, long dueAt, Answer a) {
        long now = System.nanoTime() - start;
        count(pollStatuses, a.status + (a.source == null ? "" : " " + a.source));
        if (a.status >= 200 && a.status < 300) {
            absorb(i, a);
            recorder.pollAnswered(dueAt, now, "edge".equals(a.source));
            if (OFFERED.matcher(a.body).find()) {
                // the waiting page goes to the shop when the offer is there: no more polls from this browser (the
                // claim itself is not part of this phase; the offer is left to expire)
                offersTaken.incrementAndGet();
                return;
            }
        } else {
            recorder.pollFailed(dueAt, now, a.status + " " + problemType(a.body));
        }
        next(i, now);
    }

    /** The next poll at the server's advice plus up to {@code jitter} more, as the waiting page does; none past the end. */
    private void next(int i, long now) {
        double interval = Math.max(1, pollAfter[i] > 0 ? pollAfter[i] : 5)
                * (1 + java.util.concurrent.ThreadLocalRandom.current().nextDouble() * jitter);
        long at = now + (long) (interval * 1e9);
        if (start + at >= end) {
            return;
        }
        due[i] = at;
        wheel[(int) Math.min(wheel.length - 1, at / SLOT_NANOS)].add(i);
    }

    /** Every Set-Cookie as a browser applies it (a later one of a name replaces the earlier), and the poll advice. */
    private void absorb(int i, Answer a) {
        for (String c : a.setCookies) {
            int eq = c.indexOf('=');
            if (eq < 0) {
                continue;
            }
            int semi = c.indexOf(';');
            String name = c.substring(0, eq).trim();
            String pair = c.substring(0, semi < 0 ? c.length() : semi).trim();
            boolean cleared =
                    pair.length() == eq + 1 || c.toLowerCase(Locale.ROOT).contains("max-age=0");
            if (name.endsWith("wr_vid")) {
                vid[i] = cleared ? null : pair;
            } else if (name.endsWith("wr_qt")) {
                qt[i] = cleared ? null : pair;
            }
        }
        Matcher m = POLL_AFTER.matcher(a.body);
        if (m.find()) {
            pollAfter[i] = Integer.parseInt(m.group(1));
        }
    }

    /**
     * {@code inFlight} join-shaped requests at a time for {@code secs} seconds, each sent when the one before it on
     * its lane is answered: the most this client gets from a server that answers a constant.
     */
    private long closedLoop(HttpClient http, int inFlight, int secs, OpeningReport.Histogram latency)
            throws InterruptedException {
        long stop = System.nanoTime() + TimeUnit.SECONDS.toNanos(secs);
        AtomicLong done = new AtomicLong();
        AtomicInteger lanes = new AtomicInteger(inFlight);
        for (int k = 0; k < inFlight; k++) {
            lane(http, k, stop, done, lanes, latency);
        }
        while (lanes.get() > 0) {
            Thread.sleep(20);
        }
        return done.get();
    }

    private void lane(
            HttpClient http, int n, long stop, AtomicLong done, AtomicInteger lanes, OpeningReport.Histogram latency) {
        if (System.nanoTime() >= stop) {
            lanes.decrementAndGet();
            return;
        }
        long t0 = System.nanoTime();
        String address = forwardedFor(n);
        http.headers(h -> h.set("X-Forwarded-For", address)
                        .set("X-Request-Id", "opening-n" + n)
                        .set("Content-Type", "application/json"))
                .post()
                .uri(joinPath)
                .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(EMPTY_OBJECT)))
                .responseSingle((res, body) -> body.asString()
                        .defaultIfEmpty("")
                        .map(b -> new Answer(
                                res.status().code(), res.responseHeaders().getAll("set-cookie"), null, b)))
                .subscribe(
                        a -> {
                            if (System.nanoTime() < stop) {
                                done.incrementAndGet();
                                if (latency != null) {
                                    latency.record(System.nanoTime() - t0);
                                }
                            }
                            lane(http, n + 100_000, stop, done, lanes, latency);
                        },
                        error -> lane(http, n + 100_000, stop, done, lanes, latency));
    }

    // --- the report --------------------------------------------------------------------------------------------------

    record Figures(
            Map<String, Object> before,
            Map<String, Object> after,
            Map<String, Long> pollsBefore,
            Map<String, Long> pollsAfter,
            String loadStart,
            String loadEnd,
            double clientCpuSeconds,
            double phaseSeconds,
            int unanswered,
            Map<String, Object> nginx) {}

    private int report(Figures f) throws IOException {
        // the phase, and the seconds after it in which late joins were still answered
        int upTo = Math.max(seconds, recorder.lastJoinSecond() + 1);
        List<OpeningReport.Window> windows = recorder.windows(5, upTo);
        OpeningReport.Window all = recorder.window(0, recorder.length());
        OpeningReport.Window first30 = recorder.window(0, Math.min(30, seconds));
        long lost = all.lost();
        long refused = all.refused();
        long joined = all.joined();
        boolean pass = lost == 0 && refused == 0 && joined == visitors;
        double edgeShare = all.edgeShare();
        double peak = windows.stream()
                .filter(w -> w.toSecond() <= seconds)
                .mapToDouble(OpeningReport.Window::joinedPerSecond)
                .max()
                .orElse(0);

        Map<String, Object> verdict = new LinkedHashMap<>();
        verdict.put("pass", pass);
        verdict.put("rule", "every join answered 2xx: none lost (no answer or 5xx), none refused (4xx)");
        Map<String, Object> targets = new LinkedHashMap<>();
        targets.put("allJoined", target(joined, ">=", visitors));
        targets.put("joinP99Ms<=500", target(all.joinP99(), "<=", 500));
        targets.put("edgeSharePercent>=97", target(edgeShare, ">=", 97));
        verdict.put("targets (issue 29; reported, never asserted)", targets);

        Map<String, Object> joins = new LinkedHashMap<>();
        joins.put("visitors", visitors);
        joins.put("seconds", seconds);
        joins.put("rushVisitors", OpeningSchedule.rushVisitors(visitors));
        joins.put("rushSeconds", OpeningReport.round(OpeningSchedule.rushNanos(seconds) / 1e9));
        joins.put("offered", all.offered());
        joins.put("joined", joined);
        joins.put("joinedExisting(200)", joinedExisting.get());
        joins.put("joinedWithoutTicket", joinedWithoutTicket.get());
        joins.put("lost", lost);
        joins.put("lostBy", recorder.lostByReason());
        joins.put("unansweredAfterDrain", f.unanswered());
        joins.put("refused", refused);
        joins.put("refusedByProblemType", recorder.refusedByType());
        joins.put("statuses", counts(joinStatuses));
        joins.put("p50Ms", OpeningReport.round(all.joinP50()));
        joins.put("p99Ms", OpeningReport.round(all.joinP99()));
        joins.put("maxMs", OpeningReport.round(all.joinLatency().maxMillis()));
        joins.put("achievedPerSecondFirst30s", OpeningReport.round(first30.joinedPerSecond()));
        joins.put("p99MsFirst30s", OpeningReport.round(first30.joinP99()));
        joins.put("peak5sAchievedPerSecond", OpeningReport.round(peak));

        Map<String, Object> polls = new LinkedHashMap<>();
        polls.put("sent", pollsSent.get());
        polls.put("offersTakenToTheShop", offersTaken.get());
        polls.put("answeredAtEdge", all.edge());
        polls.put("forwarded", all.forwarded());
        polls.put("failed", all.pollFailed());
        polls.put("failedBy", recorder.pollFailuresByReason());
        polls.put("edgeSharePercent", Double.isNaN(edgeShare) ? null : OpeningReport.round(edgeShare));
        polls.put("p50Ms", OpeningReport.round(all.pollP50()));
        polls.put("p99Ms", OpeningReport.round(all.pollP99()));
        polls.put("statuses", counts(pollStatuses));
        polls.put("gatewayCountersDelta", delta(f.pollsBefore(), f.pollsAfter()));

        Map<String, Object> client = new LinkedHashMap<>();
        client.put("kind", "Reactor Netty HttpClient, one event-loop thread per --client-threads, open loop");
        client.put("connections", Integer.parseInt(o.getOrDefault("connections", "512")));
        client.put("clientThreads", Integer.parseInt(o.getOrDefault("client-threads", "1")));
        client.put("jitter", jitter);
        client.put("seed", Long.parseLong(o.getOrDefault("seed", "29")));
        client.put("cpuSeconds", OpeningReport.round(f.clientCpuSeconds()));
        client.put("phaseSeconds", OpeningReport.round(f.phaseSeconds()));
        client.put(
                "cpuPercentOfOneCore",
                OpeningReport.round(100 * f.clientCpuSeconds() / Math.max(1e-9, f.phaseSeconds())));
        client.put(
                "cpuPercentOfMachine",
                OpeningReport.round(100
                        * f.clientCpuSeconds()
                        / Math.max(1e-9, f.phaseSeconds())
                        / Runtime.getRuntime().availableProcessors()));
        client.put("sendLatenessP99Ms", OpeningReport.round(lateness.percentileMillis(99)));
        client.put("sendLatenessMaxMs", OpeningReport.round(lateness.maxMillis()));

        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("name", "opening-minute");
        figures.put("run", meta(f));
        figures.put("verdict", verdict);
        figures.put("joins", joins);
        figures.put("polls", polls);
        figures.put("processes", processes(f.before(), f.after()));
        figures.put("redis", redis(f.before(), f.after(), joined));
        figures.put("client", client);
        if (f.nginx() != null) {
            f.nginx()
                    .put(
                            "ratioPeakJoinsToNginx",
                            Math.round(1000 * peak / (double) f.nginx().get("requestsPerSecond")) / 1000.0);
            figures.put("nginx", f.nginx());
        }
        figures.put("windows", windows.stream().map(OpeningReport.Window::asMap).toList());
        Map<String, Object> perSecond = new LinkedHashMap<>();
        perSecond.put("joinsOffered", trim(recorder.series("offered"), upTo));
        perSecond.put("joinsAnswered", trim(recorder.series("joined"), upTo));
        perSecond.put("pollsAtEdge", trim(recorder.series("edge"), upTo));
        perSecond.put("pollsForwarded", trim(recorder.series("forwarded"), upTo));
        figures.put("perSecond", perSecond);

        String prefix = o.getOrDefault("out", "opening-minute");
        Files.writeString(Path.of(prefix + ".json"), OpeningReport.json(figures));
        Map<String, Object> sections = new LinkedHashMap<>(figures);
        sections.remove("name");
        sections.remove("verdict");
        sections.remove("perSecond");
        String verdictLine = (pass ? "PASS" : "FAIL")
                + String.format(
                        Locale.ROOT,
                        ": %,d of %,d joined, %,d lost, %,d refused; join p50 %.1f ms, p99 %.1f ms; %s of %,d polls at the"
                                + " edge, status p99 %.1f ms",
                        joined,
                        visitors,
                        lost,
                        refused,
                        all.joinP50(),
                        all.joinP99(),
                        Double.isNaN(edgeShare) ? "-" : String.format(Locale.ROOT, "%.1f %%", edgeShare),
                        all.edge() + all.forwarded(),
                        all.pollP99());
        Files.writeString(
                Path.of(prefix + ".html"),
                OpeningReport.html(
                        "Waitroom: the opening minute" + (o.containsKey("date") ? ", " + o.get("date") : ""),
                        verdictLine,
                        pass,
                        sections,
                        List.of(
                                new OpeningReport.Series(
                                        "joins offered", "#1f77b4", trim(recorder.series("offered"), upTo)),
                                new OpeningReport.Series(
                                        "joins answered 2xx", "#2ca02c", trim(recorder.series("joined"), upTo)),
                                new OpeningReport.Series(
                                        "polls at the edge", "#ff7f0e", trim(recorder.series("edge"), upTo)),
                                new OpeningReport.Series(
                                        "polls forwarded", "#d62728", trim(recorder.series("forwarded"), upTo)),
                                new OpeningReport.Series(
                                        "joins lost or refused", "#000000", trim(recorder.series("failed"), upTo)))));

        System.out.println(text(figures, windows, verdictLine));
        System.out.println(readmeRow(figures, first30, peak, edgeShare, all));
        System.out.printf(
                Locale.ROOT,
                "BENCH name=opening-minute visitors=%d seconds=%d joined=%d lost=%d refused=%d join_p50_ms=%.2f"
                        + " join_p99_ms=%.2f first30_rps=%.1f peak5s_rps=%.1f polls=%d edge_share=%.2f"
                        + " status_p99_ms=%.2f client_cpu_pct=%.1f pass=%s%n",
                visitors,
                seconds,
                joined,
                lost,
                refused,
                all.joinP50(),
                all.joinP99(),
                first30.joinedPerSecond(),
                peak,
                all.edge() + all.forwarded(),
                edgeShare,
                all.pollP99(),
                100 * f.clientCpuSeconds() / Math.max(1e-9, f.phaseSeconds()),
                pass);
        return pass ? 0 : 1;
    }

    /**
     * The run as one row of the README's performance table (issue 29, item 5): what was measured, its figures, the
     * nginx figure of the same run, the date and the commit, so the table is filled from runs and never by hand.
     */
    @SuppressWarnings("unchecked")
    private String readmeRow(
            Map<String, Object> figures,
            OpeningReport.Window first30,
            double peak,
            double edgeShare,
            OpeningReport.Window all) {
        Map<String, Object> run = (Map<String, Object>) figures.get("run");
        Map<String, Object> nginx = (Map<String, Object>) figures.get("nginx");
        Map<String, Object> redis = (Map<String, Object>) figures.get("redis");
        return String.format(
                Locale.ROOT,
                "README row: | opening minute, %,d new browsers in %d s, fresh `./waitroom run --demo` (ready in %s s)"
                        + " | %,.0f joins/s over the first %d s (best 5 s %,.0f/s), join p99 %.0f ms, %,d lost, %,d"
                        + " refused; %s of polls at the edge, status p99 %.0f ms; Redis %s B per visitor | %s | %s |"
                        + " %s | load %s |",
                visitors,
                seconds,
                run.getOrDefault("startToReadySeconds", "?"),
                first30.joinedPerSecond(),
                Math.min(30, seconds),
                peak,
                all.joinP99(),
                all.lost(),
                all.refused(),
                Double.isNaN(edgeShare) ? "-" : String.format(Locale.ROOT, "%.1f %%", edgeShare),
                all.pollP99(),
                redis.getOrDefault("bytesPerVisitorJoined", "?"),
                nginx == null
                        ? "-"
                        : String.format(Locale.ROOT, "nginx %,.0f req/s", (double) nginx.get("requestsPerSecond")),
                String.valueOf(run.getOrDefault("date", "?")).replaceFirst("T.*", ""),
                run.getOrDefault("commit", "?"),
                run.get("loadAverageAtStart"));
    }

    private Map<String, Object> meta(Figures f) throws IOException {
        Map<String, Object> run = new LinkedHashMap<>();
        if (o.containsKey("meta")) {
            for (String line : Files.readAllLines(Path.of(o.get("meta")))) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    run.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        run.put("loadAverageAtStart", f.loadStart());
        run.put("loadAverageAtEnd", f.loadEnd());
        run.put("cores", Runtime.getRuntime().availableProcessors());
        run.put("event", require(o, "event"));
        run.put("gateway", require(o, "url"));
        return run;
    }

    private static Map<String, Object> target(double value, String op, double bound) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("value", Double.isNaN(value) ? null : OpeningReport.round(value));
        m.put("met", !Double.isNaN(value) && (op.equals(">=") ? value >= bound : value <= bound));
        return m;
    }

    /** Per process: RSS and its peak from /proc, heap from the service's actuator, CPU used during the phase. */
    private static List<Map<String, Object>> processes(Map<String, Object> before, Map<String, Object> after) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String name : before.keySet()) {
            if (!(before.get(name) instanceof Map<?, ?> b) || !(after.get(name) instanceof Map<?, ?> a)) {
                continue;
            }
            if (!b.containsKey("pid")) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("process", name);
            row.put("pid", b.get("pid"));
            row.put("rssMiBBefore", mib(b.get("rssKiB"), 1024));
            row.put("rssMiBAfter", mib(a.get("rssKiB"), 1024));
            row.put("rssPeakMiB", mib(a.get("hwmKiB"), 1024));
            row.put("heapUsedMiBBefore", mib(b.get("heapUsed"), 1 << 20));
            row.put("heapUsedMiBAfter", mib(a.get("heapUsed"), 1 << 20));
            row.put("heapCommittedMiBAfter", mib(a.get("heapCommitted"), 1 << 20));
            Object t0 = b.get("cpuTicks"), t1 = a.get("cpuTicks");
            row.put(
                    "cpuSecondsInPhase",
                    t0 instanceof Long x && t1 instanceof Long y ? OpeningReport.round((y - x) / 100.0) : null);
            row.put("jvmFlags", b.get("flags"));
            rows.add(row);
        }
        return rows;
    }

    private static Object mib(Object v, double unit) {
        return v instanceof Number n ? OpeningReport.round(n.doubleValue() / unit) : null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> redis(Map<String, Object> before, Map<String, Object> after, long joined) {
        Map<String, Object> m = new LinkedHashMap<>();
        Object b = before.get("redis.info"), a = after.get("redis.info");
        if (!(b instanceof Map<?, ?> bi) || !(a instanceof Map<?, ?> ai)) {
            m.put("error", String.valueOf(after.getOrDefault("redis.error", "no INFO")));
            return m;
        }
        long ub = Long.parseLong(String.valueOf(bi.get("used_memory")));
        long ua = Long.parseLong(String.valueOf(ai.get("used_memory")));
        m.put("usedMemoryBefore", ub);
        m.put("usedMemoryAfter", ua);
        m.put("keysBefore", bi.get("dbsize"));
        m.put("keysAfter", ai.get("dbsize"));
        m.put("bytesPerVisitorJoined", joined == 0 ? null : OpeningReport.round((ua - ub) / (double) joined));
        m.put(
                "note",
                "used_memory after minus before over visitors joined: queue entries, liveness, tickets and the"
                        + " per-address limit buckets the joins created (these expire)");
        return m;
    }

    private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d != 0) {
                out.put(k, d);
            }
        });
        return out;
    }

    private static Object dash(Object v) {
        return v == null || "".equals(v) ? "-" : v;
    }

    private static long[] trim(long[] series, int length) {
        return java.util.Arrays.copyOf(series, Math.min(series.length, length));
    }

    private static Map<String, Long> counts(Map<String, AtomicLong> m) {
        Map<String, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    private static void count(Map<String, AtomicLong> m, String key) {
        m.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
    }

    /** The printed report: the main figures, then the windows as a table. */
    @SuppressWarnings("unchecked")
    private static String text(Map<String, Object> figures, List<OpeningReport.Window> windows, String verdict) {
        StringBuilder b = new StringBuilder();
        b.append("Waitroom: the opening minute\n");
        for (String section : List.of("run", "joins", "polls", "redis", "client", "nginx")) {
            Object v = figures.get(section);
            if (v instanceof Map<?, ?> m) {
                b.append(section).append(": ");
                int n = 0;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    b.append(n++ == 0 ? "" : ", ")
                            .append(e.getKey())
                            .append('=')
                            .append(e.getValue());
                }
                b.append('\n');
            }
        }
        for (Map<String, Object> p : (List<Map<String, Object>>) figures.get("processes")) {
            b.append(String.format(
                    Locale.ROOT,
                    "process %-24s RSS %s -> %s MiB (peak %s), heap used %s -> %s MiB, CPU %s s in the phase; %s%n",
                    p.get("process"),
                    p.get("rssMiBBefore"),
                    p.get("rssMiBAfter"),
                    p.get("rssPeakMiB"),
                    dash(p.get("heapUsedMiBBefore")),
                    dash(p.get("heapUsedMiBAfter")),
                    p.get("cpuSecondsInPhase"),
                    dash(p.get("jvmFlags"))));
        }
        b.append(String.format(
                Locale.ROOT,
                "%n%-9s %9s %9s %8s %7s %5s %8s %8s %9s %8s %7s %8s %8s%n",
                "window",
                "offered/s",
                "joined/s",
                "refused",
                "lost",
                "",
                "p50 ms",
                "p99 ms",
                "polls/s",
                "edge %",
                "failed",
                "st p50",
                "st p99"));
        for (OpeningReport.Window w : windows) {
            b.append(String.format(
                    Locale.ROOT,
                    "%3d-%-3d s %9.1f %9.1f %8d %7d %5s %8.1f %8.1f %9.1f %8s %7d %8.1f %8.1f%n",
                    w.fromSecond(),
                    w.toSecond(),
                    w.offeredPerSecond(),
                    w.joinedPerSecond(),
                    w.refused(),
                    w.lost(),
                    "",
                    w.joinP50(),
                    w.joinP99(),
                    w.pollsPerSecond(),
                    Double.isNaN(w.edgeShare()) ? "-" : String.format(Locale.ROOT, "%.1f", w.edgeShare()),
                    w.pollFailed(),
                    w.pollP50(),
                    w.pollP99()));
        }
        return b.append('\n').append(verdict).toString();
    }

    // --- the stack's processes and stores ----------------------------------------------------------------------------

    /** The processes the launcher wrote to {@code <data dir>/stack.txt}, and how to read their figures. */
    record Stack(Path dataDir, List<String[]> services, List<String[]> stores, String redisPassword) {

        static Stack read(Path dataDir) throws IOException {
            if (!Files.exists(dataDir.resolve("stack.txt"))) {
                // no stack (the client alone against nginx, to see what it keeps up with): no process figures
                return new Stack(dataDir, List.of(), List.of(), "");
            }
            List<String[]> services = new ArrayList<>();
            List<String[]> stores = new ArrayList<>();
            for (String line : Files.readAllLines(dataDir.resolve("stack.txt"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 6 && f[0].equals("service")) {
                    services.add(f);
                } else if (f.length == 6 && f[0].equals("store")) {
                    stores.add(f);
                }
            }
            String password = "";
            Path secrets = dataDir.resolve("secrets.properties");
            if (Files.exists(secrets)) {
                for (String line : Files.readAllLines(secrets)) {
                    if (line.startsWith("WAITROOM_REDIS_PASSWORD=")) {
                        password = line.substring(line.indexOf('=') + 1).trim();
                    }
                }
            }
            return new Stack(dataDir, services, stores, password);
        }

        Map<String, Object> sample() {
            Map<String, Object> out = new LinkedHashMap<>();
            for (String[] s : services) {
                Map<String, Object> p = proc(Long.parseLong(s[3]));
                Map<String, Double> heap = heap(Integer.parseInt(s[5]));
                p.put("heapUsed", heap.get("used"));
                p.put("heapCommitted", heap.get("committed"));
                out.put(s[1], p);
            }
            for (String[] s : stores) {
                if (!s[3].equals("-")) {
                    out.put(s[1], proc(Long.parseLong(s[3])));
                }
                if (s[1].startsWith("redis")) {
                    try {
                        out.put("redis.info", redisInfo(Integer.parseInt(s[4])));
                    } catch (IOException e) {
                        out.put("redis.error", e.getMessage());
                    }
                }
            }
            return out;
        }

        /** The gateway's {@code waitroom_gateway_status_polls_total} by answered/reason (docs/reference/metrics.md). */
        Map<String, Long> pollMetrics() {
            Map<String, Long> out = new TreeMap<>();
            for (String[] s : services) {
                if (!s[1].startsWith("gateway")) {
                    continue;
                }
                for (String line : prometheus(Integer.parseInt(s[5])).split("\n")) {
                    if (line.startsWith("waitroom_gateway_status_polls_total{")) {
                        String key = label(line, "answered") + "/" + label(line, "reason");
                        out.merge(key, (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Long::sum);
                    }
                }
            }
            return out;
        }

        private static String label(String line, String name) {
            int at = line.indexOf(name + "=\"");
            if (at < 0) {
                return "-";
            }
            int from = at + name.length() + 2;
            return line.substring(from, line.indexOf('"', from));
        }

        private static Map<String, Object> proc(long pid) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("pid", pid);
            try {
                for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        p.put("rssKiB", Long.parseLong(line.replaceAll("\\D", "")));
                    } else if (line.startsWith("VmHWM:")) {
                        p.put("hwmKiB", Long.parseLong(line.replaceAll("\\D", "")));
                    }
                }
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // utime and stime, fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux)
                p.put("cpuTicks", Long.parseLong(f[11]) + Long.parseLong(f[12]));
                String cmd = Files.readString(Path.of("/proc/" + pid + "/cmdline"));
                List<String> flags = new ArrayList<>();
                for (String a : cmd.split("\0")) {
                    if (a.startsWith("-X") || a.startsWith("-XX")) {
                        flags.add(a);
                    }
                }
                p.put("flags", String.join(" ", flags));
            } catch (IOException | RuntimeException e) {
                p.put("error", "no /proc figures: " + e.getMessage());
            }
            return p;
        }

        private static Map<String, Double> heap(int managementPort) {
            Map<String, Double> m = new HashMap<>();
            for (String line : prometheus(managementPort).split("\n")) {
                if (line.contains("area=\"heap\"")) {
                    String key = line.startsWith("jvm_memory_used_bytes{")
                            ? "used"
                            : line.startsWith("jvm_memory_committed_bytes{") ? "committed" : null;
                    if (key != null) {
                        m.merge(key, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Double::sum);
                    }
                }
            }
            return m;
        }

        private static String prometheus(int managementPort) {
            try {
                var http = java.net.http.HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
                var request = java.net.http.HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"))
                        .timeout(Duration.ofSeconds(10))
                        .build();
                return http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString())
                        .body();
            } catch (IOException e) {
                return "";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "";
            }
        }

        /** INFO memory and DBSIZE over RESP (the embedded Redis's password from the launcher's secrets). */
        private Map<String, String> redisInfo(int port) throws IOException {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                InputStream in = new java.io.BufferedInputStream(s.getInputStream());
                if (!redisPassword.isEmpty()) {
                    command(out, "AUTH", redisPassword);
                    String ok = reply(in);
                    if (!ok.equals("OK")) {
                        throw new IOException("AUTH: " + ok);
                    }
                }
                command(out, "INFO", "memory");
                Map<String, String> info = new LinkedHashMap<>();
                for (String line : reply(in).split("\r\n")) {
                    int colon = line.indexOf(':');
                    if (colon > 0 && (line.startsWith("used_memory:") || line.startsWith("used_memory_rss:"))) {
                        info.put(
                                line.substring(0, colon),
                                line.substring(colon + 1).trim());
                    }
                }
                command(out, "DBSIZE");
                info.put("dbsize", reply(in));
                return info;
            }
        }

        private static void command(OutputStream out, String... args) throws IOException {
            StringBuilder b = new StringBuilder("*").append(args.length).append("\r\n");
            for (String a : args) {
                b.append('$')
                        .append(a.getBytes(StandardCharsets.UTF_8).length)
                        .append("\r\n")
                        .append(a)
                        .append("\r\n");
            }
            out.write(b.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        private static String reply(InputStream in) throws IOException {
            String line = line(in);
            switch (line.charAt(0)) {
                case '+', ':' -> {
                    return line.substring(1);
                }
                case '-' -> throw new IOException(line.substring(1));
                case '$' -> {
                    int n = Integer.parseInt(line.substring(1));
                    byte[] data = in.readNBytes(n + 2);
                    return new String(data, 0, n, StandardCharsets.UTF_8);
                }
                default -> throw new IOException("unexpected reply " + line);
            }
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("Redis closed the connection");
                }
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }
    }

    record Answer(int status, List<String> setCookies, String source, String body) {}

    private static String problemType(String body) {
        Matcher m = PROBLEM_TYPE.matcher(body == null ? "" : body);
        return m.find() ? m.group(1) : "(no problem type)";
    }

    private static String reason(Throwable error) {
        if (error.getClass().getSimpleName().equals("PoolAcquireTimeoutException")) {
            // the request waited for one of the client's connections, every one busy with an unanswered request
            return "not sent in " + TIMEOUT.toSeconds() + " s: every connection busy";
        }
        String name = error.getClass().getSimpleName();
        return name.isEmpty() ? "error" : name;
    }

    /** A client address per visitor from 198.18.0.0/15 (benchmarking range, RFC 2544); beyond 131,072 they repeat. */
    static String forwardedFor(int index) {
        return "198." + (18 + ((index >> 16) & 1)) + "." + ((index >> 8) & 255) + "." + (index & 255);
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void log(String message) {
        System.err.println("opening-minute: " + message);
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
}
