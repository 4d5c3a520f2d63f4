package dev.waitroom.deploy;

import dev.waitroom.testsupport.SyntheticClients;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chaos run's sale (docs/operating/chaos.md#workload): visitors arriving through the gateways over most of the
 * run, each with its own cookies and client address, joining, polling at the interval the server asks, some leaving
 * the queue, claiming their offer, then leaving the shop or holding a seat, ordering and waiting for the payment; and
 * an operator who pauses and resumes, declares the sale sold out, adds seats and opens a new round. Every request is
 * one operation of the history, with the client's invocation and completion times and its outcome.
 */
final class ChaosWorkload implements AutoCloseable {

    /** A client gets no answer within this: its outcome is unknown. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(8);

    private static final Pattern SEAT_ID = Pattern.compile("\"seatId\"\\s*:\\s*\"([^\"]+)\"");

    private final LocalStack stack;
    private final ChaosHistory history;
    private final String event;
    private final long seed;
    private final Map<String, String> gateways;
    private final String opsGateway;
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(3))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    private final ScheduledExecutorService pool;
    private volatile long deadline;
    private final List<Visitor> all = new ArrayList<>();
    private Thread operator;
    private final Map<String, AtomicLong> counts = new java.util.concurrent.ConcurrentHashMap<>();

    /** One browser: its cookies, its address, where it is in the sale. */
    private final class Visitor {
        final String name;
        final String region;
        final String base;
        final Random random;
        final String address = SyntheticClients.next();
        final Map<String, String> cookies = new LinkedHashMap<>();
        final String claimKey = UUID.randomUUID().toString().replace("-", "");
        String token;
        String receipt;
        int attempts;
        /** Its last join got no answer (or a 5xx): whether it took effect is not known yet. */
        volatile boolean joinUnresolved;

        Visitor(int n, String region) {
            this.name = "v" + n;
            this.region = region;
            this.base = gateways.get(region);
            this.random = new Random(seed * 31 + n);
        }
    }

    /**
     * {@code gateways}: region name ({@code ""} for a single region) to the gateway URL its visitors use.
     */
    ChaosWorkload(LocalStack stack, ChaosHistory history, String event, long seed, Map<String, String> gateways) {
        this.stack = stack;
        this.history = history;
        this.event = event;
        this.seed = seed;
        this.gateways = Map.copyOf(gateways);
        // the operator works through the first region's gateway (Map.copyOf keeps no order: seed 32 sent the ops
        // calls to a region whose gateway was killed)
        this.opsGateway = gateways.get(new java.util.TreeSet<>(gateways.keySet()).first());
        this.pool = Executors.newScheduledThreadPool(48, r -> {
            Thread t = new Thread(r, "chaos-visitor");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Sends {@code visitors} into the sale, arriving evenly over the first two thirds of {@code run}, and plays the
     * operator's script over the run. Returns at once; everything stops at the end of {@code run}.
     */
    void start(int visitors, Duration run, long startedAt) {
        deadline = startedAt + run.toMillis();
        List<String> regions = new ArrayList<>(gateways.keySet());
        java.util.Collections.sort(regions);
        long window = run.toMillis() * 2 / 3;
        Random arrivals = new Random(seed);
        for (int i = 0; i < visitors; i++) {
            Visitor v = new Visitor(i, regions.get(i % regions.size()));
            long at = window * i / visitors + arrivals.nextInt(1_000);
            synchronized (all) {
                all.add(v);
            }
            later(v, at, () -> join(v));
        }
        operator = new Thread(() -> operate(run, startedAt), "chaos-operator");
        operator.setDaemon(true);
        operator.start();
    }

    Map<String, Long> counts() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    // ---------------------------------------------------------------------------------------------------------
    // visitors

    private void later(Visitor v, long millis, Runnable step) {
        if (System.currentTimeMillis() + millis < deadline) {
            pool.schedule(
                    () -> {
                        // a step that comes due after the end is not started: every request in the history completed
                        if (System.currentTimeMillis() < deadline) {
                            step.run();
                        }
                    },
                    millis,
                    TimeUnit.MILLISECONDS);
        }
    }

    private void join(Visitor v) {
        ChaosHistory.Completed c = call(v, "join", "POST", "/events/" + event + "/queue", "{}", null, b -> entry(b));
        v.attempts++;
        v.joinUnresolved = !c.answered() || c.status() >= 500;
        if (c.status() == 200 || c.status() == 201) {
            v.receipt = text(c.body(), "receipt");
            later(v, pollAfter(v, c.body()), () -> poll(v));
        } else if (v.attempts < 30) {
            later(v, c.answered() ? 1_000 + v.random.nextInt(2_000) : 500, () -> join(v));
        }
    }

    private void poll(Visitor v) {
        if (v.random.nextInt(100) < 2) {
            call(v, "leave-queue", "DELETE", "/events/" + event + "/queue", null, null, b -> entry(b));
            return;
        }
        ChaosHistory.Completed c =
                call(v, "status", "GET", "/events/" + event + "/queue/status", null, null, b -> entry(b));
        String state = text(c.body(), "state");
        if (c.status() == 200 && ("OFFERED".equals(state) || "ACTIVE".equals(state))) {
            claim(v);
        } else if (c.status() == 200
                && ("EXPIRED".equals(state) || "LEFT".equals(state) || "COMPLETED".equals(state))) {
            count("visitor.ended." + state);
        } else {
            later(v, pollAfter(v, c.body()), () -> poll(v));
        }
    }

    private void claim(Visitor v) {
        ChaosHistory.Completed c =
                call(v, "claim", "POST", "/events/" + event + "/admission/claim", "{}", v.claimKey, b -> {
                    ObjectNode n = ChaosHistory.JSON.createObjectNode();
                    n.put("sessionId", text(b, "sessionId"));
                    return n;
                });
        if (c.status() == 200) {
            v.token = text(c.body(), "token");
            shop(v, 0);
        } else if (!c.answered()) {
            later(v, 500, () -> claim(v));
        } else {
            later(v, 1_000, () -> poll(v));
        }
    }

    private void shop(Visitor v, int tries) {
        if (tries == 0 && v.random.nextInt(100) < 25) {
            ChaosHistory.Completed left =
                    call(v, "leave", "POST", "/events/" + event + "/shopping-session/leave", "{}", null, null);
            if (left.status() / 100 == 2) {
                // the released session's token must no longer open the shop
                call(v, "probe-after-leave", "GET", "/events/" + event + "/shop/seats", null, null, null);
            }
            return;
        }
        if (tries >= 3) {
            call(v, "leave", "POST", "/events/" + event + "/shopping-session/leave", "{}", null, null);
            return;
        }
        ChaosHistory.Completed seats = call(v, "seats", "GET", "/events/" + event + "/shop/seats", null, null, null);
        List<String> ids = new ArrayList<>();
        Matcher m = SEAT_ID.matcher(seats.answered() ? seats.response().body() : "");
        while (m.find() && ids.size() < 30) {
            ids.add(m.group(1));
        }
        if (ids.isEmpty()) {
            later(v, 1_000, () -> shop(v, tries + 1));
            return;
        }
        String seat = ids.get(v.random.nextInt(ids.size()));
        ChaosHistory.Completed hold = call(
                v, "hold", "POST", "/events/" + event + "/shop/holds", "{\"seatIds\":[\"" + seat + "\"]}", null, b -> {
                    ObjectNode n = ChaosHistory.JSON.createObjectNode();
                    n.put("holdId", text(b, "holdId"));
                    n.put("seatId", seat);
                    return n;
                });
        if (hold.status() / 100 != 2) {
            later(v, 500, () -> shop(v, tries + 1));
            return;
        }
        String holdId = text(hold.body(), "holdId");
        String orderKey = UUID.randomUUID().toString().replace("-", "");
        order(v, holdId, orderKey, 0);
    }

    private void order(Visitor v, String holdId, String key, int tries) {
        ChaosHistory.Completed order = call(
                v,
                "order",
                "POST",
                "/events/" + event + "/shop/orders",
                "{\"holdId\":\"" + holdId + "\"}",
                key,
                ChaosWorkload::order);
        if (order.status() / 100 == 2) {
            String id = text(order.body(), "orderId");
            later(v, 1_000, () -> orderStatus(v, id, 0));
        } else if (!order.answered() && tries < 3) {
            // the same idempotency key: a repeat finds the order the lost answer was about
            later(v, 1_000, () -> order(v, holdId, key, tries + 1));
        }
    }

    private void orderStatus(Visitor v, String orderId, int tries) {
        ChaosHistory.Completed c =
                call(v, "order-status", "GET", "/events/" + event + "/shop/orders/" + orderId, null, null, b -> {
                    ObjectNode n = order(b);
                    n.put("orderId", orderId);
                    return n;
                });
        String state = text(c.body(), "state");
        if (!"PAID".equals(state) && !"PAYMENT_FAILED".equals(state) && tries < 8) {
            later(v, 1_000, () -> orderStatus(v, orderId, tries + 1));
        } else {
            count("visitor.order." + state);
        }
    }

    private long pollAfter(Visitor v, JsonNode body) {
        JsonNode after = body.get("pollAfterSeconds");
        long seconds = after == null ? 2 : Math.max(1, Math.min(5, after.asLong()));
        return seconds * 1_000 + v.random.nextInt(700);
    }

    private static ObjectNode entry(JsonNode b) {
        ObjectNode n = ChaosHistory.JSON.createObjectNode();
        n.put("receipt", text(b, "receipt"));
        n.put("state", text(b, "state"));
        n.put("mode", text(b, "mode"));
        return n;
    }

    private static ObjectNode order(JsonNode b) {
        ObjectNode n = ChaosHistory.JSON.createObjectNode();
        n.put("orderId", text(b, "orderId"));
        n.put("state", text(b, "state"));
        return n;
    }

    /** One request as {@code v}, recorded in the history as operation {@code f}, with what {@code value} reads. */
    private ChaosHistory.Completed call(
            Visitor v,
            String f,
            String method,
            String path,
            String body,
            String idempotencyKey,
            Function<JsonNode, ObjectNode> value) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(v.base + path))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("X-Forwarded-For", v.address);
        if (!v.cookies.isEmpty()) {
            request.header(
                    "Cookie",
                    String.join(
                            "; ",
                            v.cookies.entrySet().stream()
                                    .map(c -> c.getKey() + "=" + c.getValue())
                                    .toList()));
        }
        if (v.token != null) {
            request.header("Authorization", "Bearer " + v.token);
        }
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        long invoked = System.currentTimeMillis();
        ChaosHistory.Completed c;
        try {
            HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            for (String set : r.headers().allValues("Set-Cookie")) {
                String pair = set.split(";", 2)[0];
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    String name = pair.substring(0, eq).trim();
                    if (set.toLowerCase(java.util.Locale.ROOT).contains("max-age=0")) {
                        v.cookies.remove(name);
                    } else {
                        v.cookies.put(name, pair.substring(eq + 1).trim());
                    }
                }
            }
            c = new ChaosHistory.Completed(r, null);
        } catch (java.net.http.HttpTimeoutException e) {
            c = new ChaosHistory.Completed(null, "timeout");
        } catch (IOException e) {
            c = new ChaosHistory.Completed(null, "connection: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            c = new ChaosHistory.Completed(null, "interrupted");
        }
        count(f + "." + (c.answered() ? c.status() : "unknown"));
        ObjectNode recorded = value == null || c.status() / 100 != 2 ? null : value.apply(c.body());
        history.op(v.name, v.region, event, f, invoked, System.currentTimeMillis(), c, recorded);
        return c;
    }

    // ---------------------------------------------------------------------------------------------------------
    // the operator

    private void operate(Duration run, long startedAt) {
        Random script = new Random(seed ^ 0x5eed);
        long total = run.toMillis();
        List<long[]> pauses = new ArrayList<>();
        for (long t = 15_000 + script.nextInt(10_000); t < total - 30_000; t += 30_000 + script.nextInt(20_000)) {
            pauses.add(new long[] {t, 3_000 + script.nextInt(4_000)});
        }
        long soldOutAt = total <= 300_000 ? total * 6 / 10 : 300_000;
        int seats = 0;
        for (long[] p : pauses) {
            if (!waitUntil(startedAt + p[0])) {
                return;
            }
            if (Math.abs(p[0] - soldOutAt) < 10_000) {
                continue;
            }
            opsUntilDone("pause", "POST", "/admin/events/" + event + "/pause", "{\"reason\":\"chaos run pause\"}");
            waitUntil(System.currentTimeMillis() + p[1]);
            opsUntilDone("resume", "POST", "/admin/events/" + event + "/resume", "{\"reason\":\"chaos run resume\"}");
        }
        for (long at = soldOutAt; at < total - 25_000; at += 300_000) {
            if (!waitUntil(startedAt + at)) {
                return;
            }
            opsUntilDone(
                    "sold-out", "POST", "/admin/events/" + event + "/sold-out", "{\"reason\":\"chaos run sold out\"}");
            waitUntil(System.currentTimeMillis() + 4_000);
            seats++;
            opsUntilDone(
                    "inventory",
                    "PUT",
                    "/admin/events/" + event + "/inventory",
                    "{\"categories\":[{\"name\":\"Floor\",\"seats\":400,\"priceCents\":5000}," + "{\"name\":\"Balcony"
                            + seats + "\",\"seats\":100,\"priceCents\":3000}]}");
            opsUntilDone(
                    "round",
                    "POST",
                    "/admin/events/" + event + "/rounds",
                    "{\"reason\":\"chaos run: seats are back\"}");
        }
    }

    /** An ops call, repeated while it gets no answer or a 5xx (a fault is on), until it is answered or the run ends. */
    private void opsUntilDone(String f, String method, String path, String body) {
        while (System.currentTimeMillis() < deadline + 60_000) {
            long invoked = System.currentTimeMillis();
            ChaosHistory.Completed c;
            try {
                c = new ChaosHistory.Completed(TestStacks.ops(stack, opsGateway, method, path, body), null);
            } catch (IOException e) {
                c = new ChaosHistory.Completed(
                        null, "connection: " + e.getClass().getSimpleName());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            history.op("ops", "", event, f, invoked, System.currentTimeMillis(), c, null);
            count("ops." + f + "." + (c.answered() ? c.status() : "unknown"));
            if (c.answered() && c.status() < 500) {
                return;
            }
            waitUntil(System.currentTimeMillis() + 1_000);
        }
    }

    /**
     * Asks again, once the faults are healed, for each visitor whose last join got no answer (or a 5xx): join is
     * idempotent, so the answer says whether the lost one took effect (200, the entry it made) or not (201). A visitor
     * whose last join was answered (a refusal such as {@code 409 sold-out} included) has nothing to resolve: asking
     * every refused visitor five times a second apart held the end of a sold-out run for minutes.
     */
    void resolveUnknownJoins() {
        List<Visitor> unresolved;
        synchronized (all) {
            unresolved = all.stream()
                    .filter(v -> v.attempts > 0 && v.receipt == null && v.joinUnresolved)
                    .toList();
        }
        for (Visitor v : unresolved) {
            for (int i = 0; i < 5 && v.joinUnresolved; i++) {
                ChaosHistory.Completed c =
                        call(v, "join", "POST", "/events/" + event + "/queue", "{}", null, b -> entry(b));
                v.joinUnresolved = !c.answered() || c.status() >= 500;
                if (c.status() == 200 || c.status() == 201) {
                    v.receipt = text(c.body(), "receipt");
                } else if (v.joinUnresolved) {
                    waitUntil(System.currentTimeMillis() + 1_000);
                }
            }
        }
    }

    /** Resumes the sale if the operator left it paused (a fault cut the run short): the checker's windows end. */
    void resumeIfPaused() {
        opsUntilDone("resume", "POST", "/admin/events/" + event + "/resume", "{\"reason\":\"chaos run end\"}");
    }

    private static boolean waitUntil(long at) {
        try {
            long wait = at - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void count(String name) {
        counts.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
    }

    static String text(JsonNode body, String field) {
        JsonNode n = body == null ? null : body.get(field);
        return n == null || n.isNull() ? null : n.asString();
    }

    @Override
    public void close() throws InterruptedException {
        deadline = 0;
        if (operator != null) {
            operator.interrupt();
            operator.join(30_000);
        }
        pool.shutdown();
        if (!pool.awaitTermination(20, TimeUnit.SECONDS)) {
            pool.shutdownNow();
        }
    }
}
