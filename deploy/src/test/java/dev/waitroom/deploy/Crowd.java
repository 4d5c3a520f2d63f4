package dev.waitroom.deploy;

import dev.waitroom.testsupport.SyntheticClients;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Visitors driven through the gateway as browsers would: each has its own cookies, joins, polls its status, claims
 * an offer when it comes, then either buys a seat or leaves the shop, so capacity keeps turning over.
 */
final class Crowd implements AutoCloseable {

    static final class Visitor {
        final HttpClient http;
        volatile String receipt;
        volatile String state = "NEW";
        volatile String token;
        volatile boolean done;
        /** The visitor cookie it joined with: the id that owns its queue entry (stable: a claim does not change it). */
        volatile String joinedAs;
        /** Its own client address, sent as X-Forwarded-For: the gateway's per-address limits see a crowd. */
        final String address = SyntheticClients.next();

        Visitor() {
            this.http = HttpClient.newBuilder()
                    .cookieHandler(new CookieManager())
                    .connectTimeout(Duration.ofSeconds(3))
                    .build();
        }
    }

    /** Cookie-less: {@link #statusAsJoined} sends the one cookie it means. */
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private final String base;
    private final String eventId;
    private final double buyShare;
    private final List<Visitor> visitors = new ArrayList<>();
    private final ExecutorService pool = Executors.newFixedThreadPool(16);
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private Thread driver;

    Crowd(String base, String eventId, double buyShare) {
        this.base = base;
        this.eventId = eventId;
        this.buyShare = buyShare;
    }

    /** Joins {@code count} new visitors (in parallel) and returns once every join was answered. */
    void join(int count) throws Exception {
        List<Future<?>> joins = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Visitor v = new Visitor();
            synchronized (visitors) {
                visitors.add(v);
            }
            joins.add(pool.submit(() -> {
                for (int attempt = 0; attempt < 20 && v.receipt == null; attempt++) {
                    HttpResponse<String> r = send(v, "POST", "/events/" + eventId + "/queue", "{}");
                    count("join." + r.statusCode());
                    if (r.statusCode() == 200 || r.statusCode() == 201) {
                        v.receipt = text(r.body(), "receipt");
                        v.state = text(r.body(), "state");
                        v.joinedAs = visitorCookie(v);
                    } else {
                        pause(500);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : joins) {
            f.get();
        }
    }

    /** Starts the background loop: poll every visitor about once a second, claim offers, shop, leave. */
    void start() {
        driver = new Thread(
                () -> {
                    while (running.get()) {
                        List<Visitor> snapshot;
                        synchronized (visitors) {
                            snapshot = new ArrayList<>(visitors);
                        }
                        List<Future<?>> round = new ArrayList<>();
                        for (Visitor v : snapshot) {
                            if (!v.done) {
                                round.add(pool.submit(() -> step(v)));
                            }
                        }
                        for (Future<?> f : round) {
                            try {
                                f.get();
                            } catch (Exception e) {
                                count("driver.error");
                            }
                        }
                        pause(1000);
                    }
                },
                "crowd-driver");
        driver.setDaemon(true);
        driver.start();
    }

    private void step(Visitor v) {
        if (v.token == null) {
            HttpResponse<String> status = send(v, "GET", "/events/" + eventId + "/queue/status", null);
            count("status." + status.statusCode());
            if (status.statusCode() != 200) {
                return;
            }
            v.state = text(status.body(), "state");
            if ("OFFERED".equals(v.state)) {
                HttpResponse<String> claim = send(v, "POST", "/events/" + eventId + "/admission/claim", "{}");
                count("claim." + claim.statusCode());
                if (claim.statusCode() == 200) {
                    v.token = text(claim.body(), "token");
                }
            } else if ("EXPIRED".equals(v.state) || "COMPLETED".equals(v.state) || "LEFT".equals(v.state)) {
                v.done = true;
            }
            return;
        }
        if (ThreadLocalRandom.current().nextDouble() < buyShare && buy(v)) {
            count("bought");
        } else {
            HttpResponse<String> leave = send(v, "POST", "/events/" + eventId + "/shopping-session/leave", "{}");
            count("leave." + leave.statusCode());
        }
        v.done = true;
    }

    private boolean buy(Visitor v) {
        HttpResponse<String> seats = send(v, "GET", "/events/" + eventId + "/shop/seats", null);
        count("seats." + seats.statusCode());
        if (seats.statusCode() != 200) {
            return false;
        }
        Matcher m = Pattern.compile("\"(?:seatId|id)\"\\s*:\\s*\"([^\"]+)\"").matcher(seats.body());
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        if (ids.isEmpty()) {
            return false;
        }
        String seat = ids.get(ThreadLocalRandom.current().nextInt(Math.min(ids.size(), 10)));
        HttpResponse<String> hold =
                send(v, "POST", "/events/" + eventId + "/shop/holds", "{\"seatIds\":[\"" + seat + "\"]}");
        count("hold." + hold.statusCode());
        if (hold.statusCode() / 100 != 2) {
            return false;
        }
        HttpResponse<String> order = send(
                v,
                "POST",
                "/events/" + eventId + "/shop/orders",
                "{\"holdId\":\"" + text(hold.body(), "holdId") + "\"}");
        count("order." + order.statusCode());
        return order.statusCode() / 100 == 2;
    }

    HttpResponse<String> send(Visitor v, String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", v.address);
        if (v.token != null) {
            request.header("Authorization", "Bearer " + v.token);
        }
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return v.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            count("io-error");
            return new FailedResponse();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new FailedResponse();
        }
    }

    /** The visitor's current {@code wr_vid} cookie ({@code name=value}), or null. */
    static String visitorCookie(Visitor v) {
        return v.http.cookieHandler()
                .map(h -> ((CookieManager) h)
                        .getCookieStore().getCookies().stream()
                                .filter(c -> c.getName().endsWith("wr_vid"))
                                .map(c -> c.getName() + "=" + c.getValue())
                                .findFirst()
                                .orElse(null))
                .orElse(null);
    }

    /** A status poll as the visitor that joined: its first visitor cookie only, not what it holds now. */
    HttpResponse<String> statusAsJoined(Visitor v) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/events/" + eventId + "/queue/status"))
                .timeout(Duration.ofSeconds(10))
                .header("Cookie", v.joinedAs)
                .header("X-Forwarded-For", v.address)
                .build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            count("io-error");
            return new FailedResponse();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new FailedResponse();
        }
    }

    List<Visitor> visitors() {
        synchronized (visitors) {
            return new ArrayList<>(visitors);
        }
    }

    long count(String name) {
        return counters.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
    }

    Map<String, Long> counters() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        counters.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        if (driver != null) {
            driver.join(15_000);
        }
        pool.shutdownNow();
    }

    static String text(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stands for a request that got no answer (connection refused, timeout). */
    private static final class FailedResponse implements HttpResponse<String> {
        @Override
        public int statusCode() {
            return 0;
        }

        @Override
        public HttpRequest request() {
            return null;
        }

        @Override
        public java.util.Optional<HttpResponse<String>> previousResponse() {
            return java.util.Optional.empty();
        }

        @Override
        public java.net.http.HttpHeaders headers() {
            return java.net.http.HttpHeaders.of(Map.of(), (a, b) -> true);
        }

        @Override
        public String body() {
            return "";
        }

        @Override
        public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
            return java.util.Optional.empty();
        }

        @Override
        public URI uri() {
            return null;
        }

        @Override
        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }
}
