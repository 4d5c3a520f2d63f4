package dev.waitroom.verifier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Sends the shop signals of one event to a Waitroom gateway (docs/integration/shop-signals.md) with the event's
 * integration credential: a purchase completed, a seat category or the whole event sold out, a session released. JDK
 * only ({@link HttpClient}); the same calls, checks and answers as the Node client ({@code verifiers/node/signals.js}).
 * Every signal is idempotent, so one refused as {@link SignalRefusedException#retryable() retryable} may simply be
 * sent again. Thread-safe. {@link #toString()} never shows the credential.
 */
public final class ShopSignals {

    private static final Pattern CREDENTIAL = Pattern.compile("wric_[0-9a-f]{16}_[A-Za-z0-9_-]{43}");

    private static final Pattern EVENT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

    private static final int MAX_ANSWER_CHARS = 64 * 1024;

    private final URI gateway;

    private final String eventId;

    private final String credential;

    private final HttpClient http;

    private final Duration timeout;

    private ShopSignals(URI gateway, String eventId, String credential, HttpClient http, Duration timeout) {
        this.gateway = gateway;
        this.eventId = eventId;
        this.credential = credential;
        this.http = http;
        this.timeout = timeout;
    }

    /**
     * A client for {@code eventId}'s signals at {@code gatewayUrl} (the gateway's public base URL), with a 10 s timeout.
     *
     * @param credential {@code wric_<id>_<secret>}, from {@code POST /admin/events/{eventId}/integration-credentials}
     * @throws IllegalArgumentException for a URL that is not http(s), a malformed event id or credential
     */
    public static ShopSignals of(URI gatewayUrl, String eventId, String credential) {
        return of(
                gatewayUrl,
                eventId,
                credential,
                HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .build(),
                Duration.ofSeconds(10));
    }

    /** {@link #of(URI, String, String)} over the caller's {@link HttpClient} and timeout per signal. */
    public static ShopSignals of(URI gatewayUrl, String eventId, String credential, HttpClient http, Duration timeout) {
        Objects.requireNonNull(gatewayUrl, "gatewayUrl");
        String scheme = gatewayUrl.getScheme();
        if (!gatewayUrl.isAbsolute()
                || gatewayUrl.getHost() == null
                || !("https".equals(scheme) || "http".equals(scheme))) {
            throw new IllegalArgumentException("gatewayUrl must be an absolute http(s) URL");
        }
        if (eventId == null || !EVENT_ID.matcher(eventId).matches()) {
            throw new IllegalArgumentException("eventId is malformed");
        }
        if (credential == null || !CREDENTIAL.matcher(credential).matches()) {
            throw new IllegalArgumentException("credential must be an integration credential (wric_<id>_<secret>)");
        }
        String base = gatewayUrl.toString().replaceAll("/+$", "");
        return new ShopSignals(URI.create(base), eventId, credential, Objects.requireNonNull(http, "http"), timeout);
    }

    /** A session's state after a signal: {@code live} is false once its capacity returned to the queue. */
    public record SessionAnswer(String eventId, String sessionId, String state, boolean live) {}

    /** The event after a sold-out signal: its mode ({@code SOLD_OUT} for the event) and its sold-out categories. */
    public record SoldOutAnswer(String eventId, String category, String mode, List<String> soldOutCategories) {}

    /** The shop sold to {@code sessionId}; released when the event's {@code afterPurchase} is {@code RELEASE}. */
    public SessionAnswer purchaseCompleted(String sessionId, String orderId) throws IOException, InterruptedException {
        Map<String, Object> answer = send(
                "purchase-completed",
                object("sessionId", required("sessionId", sessionId), "orderId", required("orderId", orderId)));
        return session(answer);
    }

    /** The shop ends {@code sessionId}: its capacity returns to the queue. */
    public SessionAnswer sessionRelease(String sessionId) throws IOException, InterruptedException {
        return session(send("session-release", object("sessionId", required("sessionId", sessionId))));
    }

    /** No seat is left in the event: it turns SOLD_OUT and outstanding offers are withdrawn. */
    public SoldOutAnswer soldOut() throws IOException, InterruptedException {
        return soldOut(send("sold-out", "{}"));
    }

    /** No seat is left in {@code category}: the waiting page shows it sold out. */
    public SoldOutAnswer soldOut(String category) throws IOException, InterruptedException {
        return soldOut(send("sold-out", object("category", required("category", category))));
    }

    private Map<String, Object> send(String signal, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway + "/events/" + eventId + "/signals/" + signal))
                .timeout(timeout)
                .header("Authorization", "Bearer " + credential)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        Map<String, Object> answer = parse(response.body());
        if (response.statusCode() != 200 || answer == null) {
            throw new SignalRefusedException(
                    response.statusCode(),
                    answer == null ? null : text(answer, "type"),
                    answer == null ? null : text(answer, "detail"));
        }
        return answer;
    }

    private static Map<String, Object> parse(String body) {
        if (body == null || body.isEmpty() || body.length() > MAX_ANSWER_CHARS) {
            return null;
        }
        try {
            return Json.parseObject(body);
        } catch (IllegalArgumentException e) {
            // a proxy's HTML error page, or a number the strict reader does not take: no answer to read
            return null;
        }
    }

    private static SessionAnswer session(Map<String, Object> answer) {
        return new SessionAnswer(
                text(answer, "eventId"),
                text(answer, "sessionId"),
                text(answer, "state"),
                Boolean.TRUE.equals(answer.get("live")));
    }

    private static SoldOutAnswer soldOut(Map<String, Object> answer) {
        List<String> categories = new ArrayList<>();
        if (answer.get("soldOutCategories") instanceof List<?> names) {
            for (Object name : names) {
                categories.add(String.valueOf(name));
            }
        }
        return new SoldOutAnswer(
                text(answer, "eventId"), text(answer, "category"), text(answer, "mode"), List.copyOf(categories));
    }

    private static String text(Map<String, Object> answer, String name) {
        return answer.get(name) instanceof String s ? s : null;
    }

    private static String required(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(name + " is required");
        }
        return value;
    }

    /** A JSON object of string members, escaped as RFC 8259 requires. */
    private static String object(String... namesAndValues) {
        Map<String, String> members = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            members.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        StringBuilder json = new StringBuilder("{");
        members.forEach((name, value) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            quote(json, name);
            json.append(':');
            quote(json, value);
        });
        return json.append('}').toString();
    }

    private static void quote(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }

    @Override
    public String toString() {
        return "ShopSignals[" + gateway + ", event " + eventId + ", credential ****]";
    }
}
