package dev.waitroom.loadtest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The rehearsal's ops side: creates the event, samples the live view and switches booking's fault injection. */
final class OpsClient {

    static final AtomicBoolean STOP = new AtomicBoolean();

    /** The rehearsal event's offer TTL: an offer was made this long before its deadline. */
    static final int OFFER_TTL_SECONDS = 30;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String baseUrl;
    private final String opsToken;

    OpsClient(String baseUrl, String opsToken) {
        this.baseUrl = baseUrl;
        this.opsToken = opsToken;
    }

    void createEvent(LoadParameters p, Instant opensAt) {
        String event = """
                {"eventId":"%s","name":"On-sale rehearsal","opensAt":"%s","maxActiveSessions":%d,
                 "maxAdmissionsPerSecond":%d,"offerTtlSeconds":%d,"sessionTtlSeconds":120,"sessionMaxSeconds":300,
                 "presaleOrdering":"RANDOM","identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE",
                 "afterPurchase":"RELEASE"}""".formatted(
                        p.eventId(),
                        opensAt.truncatedTo(ChronoUnit.SECONDS),
                        p.capacity(),
                        p.admissionsPerSecond(),
                        OFFER_TTL_SECONDS);
        expect2xx(send("POST", "/admin/events", event), "create the event");
        expect2xx(
                send(
                        "PUT",
                        "/admin/events/" + p.eventId() + "/inventory",
                        "{\"categories\":[{\"name\":\"General\",\"seats\":" + p.seats() + ",\"priceCents\":4500}]}"),
                "create the inventory");
    }

    /** Waits until {@code gatewayUrl} answers the event's public status, as a region's gateway does once it knows it. */
    void awaitPublicStatus(String gatewayUrl, String eventId, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        int last = 0;
        while (System.nanoTime() < deadline) {
            try {
                last = http.send(
                                HttpRequest.newBuilder(URI.create(gatewayUrl + "/events/" + eventId + "/status"))
                                        .timeout(Duration.ofSeconds(5))
                                        .build(),
                                HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                if (last == 200) {
                    return;
                }
                Thread.sleep(250);
            } catch (IOException notYet) {
                last = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        throw new IllegalStateException(gatewayUrl + " did not know event " + eventId + " within " + within.toSeconds()
                + " s (last answer HTTP " + last + ")");
    }

    void sample(String eventId, Ledger ledger) {
        try {
            HttpResponse<String> view = send("GET", "/admin/events/" + eventId, null);
            if (view.statusCode() == 200) {
                String body = view.body();
                ledger.live(new Ledger.LiveSample(
                        System.currentTimeMillis(),
                        number(body, "offered"),
                        number(body, "active"),
                        decimal(body, "admissionRate"),
                        text(body, "mode")));
            }
        } catch (RuntimeException e) {
            System.err.println("live view sample failed: " + e.getMessage());
        }
    }

    private static final Pattern REGION_ROW = Pattern.compile("\\{[^{}]*\"region\"\\s*:\\s*\"([^\"]+)\"[^{}]*}");

    /**
     * Samples the capacity ledger's budgets, {@code GET /admin/events/{e}/regions} (the lead's ops API of
     * docs/operating/regions.md): the ceiling, the grants held centrally and each region's slots and live grants.
     */
    void sampleBudgets(String eventId, Ledger ledger) {
        try {
            HttpResponse<String> view = send("GET", "/admin/events/" + eventId + "/regions", null);
            if (view.statusCode() == 200) {
                ledger.budgets(budgets(view.body(), System.currentTimeMillis()));
            }
        } catch (RuntimeException e) {
            System.err.println("budget sample failed: " + e.getMessage());
        }
    }

    static Ledger.BudgetSample budgets(String body, long atMillis) {
        Map<String, Long> slots = new java.util.TreeMap<>();
        Map<String, Long> used = new java.util.TreeMap<>();
        Matcher row = REGION_ROW.matcher(body);
        while (row.find()) {
            slots.put(row.group(1), Math.max(0, number(row.group(), "slots")));
            used.put(row.group(1), Math.max(0, number(row.group(), "used")));
        }
        String top = REGION_ROW.matcher(body).replaceAll("");
        return new Ledger.BudgetSample(
                atMillis, number(top, "ceiling"), Math.max(0, number(top, "centralLive")), slots, used);
    }

    Map<String, Long> finalCounts(String eventId) {
        Map<String, Long> counts = new LinkedHashMap<>();
        try {
            String view = send("GET", "/admin/events/" + eventId, null).body();
            // The queue's own counts (live.queue): every entry is in exactly one of these states.
            int at = view.indexOf("\"queue\":{");
            if (at < 0) {
                return counts;
            }
            String body = view.substring(at, view.indexOf('}', at) + 1);
            for (String name : new String[] {"waiting", "offered", "active", "completed", "left", "expired", "joins"}) {
                long value = number(body, name);
                if (value >= 0) {
                    counts.put(name, value);
                }
            }
        } catch (RuntimeException e) {
            System.err.println("final counts unavailable: " + e.getMessage());
        }
        return counts;
    }

    void slowBooking(int latencyMs) {
        HttpResponse<String> response =
                send("PUT", "/admin/booking/faults", "{\"latencyMs\":" + latencyMs + ",\"errorRate\":0.05}");
        if (response.statusCode() == 404) {
            // booking's fault injection (and its payment simulator) exist only when switched on
            throw new IllegalStateException("booking has no fault injection here (HTTP 404 on /admin/booking/faults):"
                    + " start the stack with ./waitroom run --simulations (or ./waitroom loadtest --with-stack);"
                    + " in compose set WAITROOM_BOOKING_FAULTS_ENABLED=true and WAITROOM_PAYMENTS_FAKE_ENABLED=true"
                    + " in .env");
        }
        expect2xx(response, "slow booking down");
        System.out.println("on-sale rehearsal: booking slowed down by " + latencyMs + " ms");
    }

    void restoreBooking() {
        try {
            send("DELETE", "/admin/booking/faults", null);
        } catch (RuntimeException e) {
            System.err.println("could not restore booking: " + e.getMessage());
        }
    }

    private HttpResponse<String> send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + opsToken)
                .header("Content-Type", "application/json");
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void expect2xx(HttpResponse<String> response, String what) {
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(
                    "could not " + what + ": HTTP " + response.statusCode() + " " + response.body());
        }
    }

    static long number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*(-?\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    static double decimal(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*(-?[\\d.eE+-]+)").matcher(json);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    static String text(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : "";
    }
}
