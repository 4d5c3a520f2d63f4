package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.payments.WebhookSignature;
import dev.waitroom.contract.Headers;
import dev.waitroom.testsupport.RealStoresInitializer;
import dev.waitroom.testsupport.TestHttpClient;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.KeyRing;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One Spring context for every integration test class of the booking service: real Postgres (database
 * {@code booking}), real HTTP, and a recording coordinator. A shopper holds a real admission token (signed by a key
 * ring generated here) that stands for what the gateway checked; {@link #send} calls as the gateway forwards (on shop
 * routes the {@code Waitroom-Admission} header signed with {@link TestSecrets#ADMISSION_HEADERS}, whose public key
 * booking is configured with; elsewhere the internal credential); {@link #sendDirect} calls as someone who reached
 * booking without the gateway. Tests keep apart by using their own event ids.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "waitroom.test.database=booking",
            // the test doubles are off by default; these tests use both (SimulationsSwitchedOffTests turns them off)
            "waitroom.booking.faults.enabled=true",
            "waitroom.payments.fake.enabled=true",
            "waitroom.payments.fake.outcome=MANUAL",
            "waitroom.booking.inventory.sweep-interval=200ms",
            "waitroom.booking.faults.pool-wait=2s",
            "waitroom.booking.signals.interval=1s",
            // the seats-available gauge is counted every 10 s in production; ObservabilityTests waits for a count
            "waitroom.booking.availability-gauge.refresh=500ms",
            "waitroom.services.coordinator-url=http://127.0.0.1:9",
            "spring.datasource.hikari.maximum-pool-size=8"
        })
@ContextConfiguration(initializers = {RealStoresInitializer.class, TestSecrets.class})
@Import(ShopTestSupport.TestBeans.class)
public abstract class ShopTestSupport {

    protected static final KeyRing RING = KeyRing.generate(Clock.systemUTC());
    protected static final AdmissionTokenIssuer ISSUER = AdmissionTokenIssuer.of(RING);
    private static final JsonMapper CLAIMS_READER = JsonMapper.builder().build();
    private static final AtomicInteger EVENTS = new AtomicInteger();
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    protected final TestHttpClient http = TestHttpClient.create(Duration.ofSeconds(30));

    @LocalServerPort
    protected int port;

    @Autowired
    protected RecordingCoordinator coordinator;

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    protected JsonMapper json;

    @TestConfiguration(proxyBeanMethods = false)
    static class TestBeans {

        @Bean
        @Primary
        RecordingCoordinator recordingCoordinator() {
            return new RecordingCoordinator();
        }

        @Bean
        PaymentRequests paymentRequests() {
            return new PaymentRequests();
        }
    }

    /** Payment requests as the provider sees them: only after the order's transaction committed. */
    public static final class PaymentRequests {

        private final java.util.List<dev.waitroom.booking.orders.PaymentRequested> seen =
                new java.util.concurrent.CopyOnWriteArrayList<>();

        @org.springframework.transaction.event.TransactionalEventListener
        void onPaymentRequested(dev.waitroom.booking.orders.PaymentRequested requested) {
            seen.add(requested);
        }

        public java.util.List<dev.waitroom.booking.orders.PaymentRequested> seen() {
            return java.util.List.copyOf(seen);
        }
    }

    /** A shopper admitted to an event: its own session and visitor, and a valid token. */
    public record TestShopper(String eventId, String sessionId, String visitor, String token) {}

    public record Response(int status, HttpResponse<String> raw, JsonNode json) {

        public String contentType() {
            return raw.headers().firstValue("Content-Type").orElse("");
        }

        public String text(String field) {
            JsonNode node = json.get(field);
            return node == null || node.isNull() ? null : node.asString();
        }

        /** Asserts an RFC 9457 problem of the given type slug and status. */
        public Response assertProblem(int expectedStatus, String typeSlug) {
            assertThat(status).as("status of %s", raw.body()).isEqualTo(expectedStatus);
            assertThat(contentType()).startsWith("application/problem+json");
            assertThat(text("type")).isEqualTo("https://waitroom.dev/problems/" + typeSlug);
            assertThat(json.get("status").asInt()).isEqualTo(expectedStatus);
            return this;
        }

        public Response assertDetailContains(String text) {
            assertThat(text("detail")).as(raw.body()).contains(text);
            return this;
        }
    }

    protected static String newEventId(String prefix) {
        return prefix + "-" + RUN + "-" + EVENTS.incrementAndGet();
    }

    /** An event with one category {@code A} of {@code seats} seats at 2500 cents. */
    protected String newEvent(String prefix, int seats) {
        String event = newEventId(prefix);
        Response defined = send(
                "PUT",
                "/admin/events/" + event + "/inventory",
                "Bearer " + TestSecrets.OPS_TOKEN,
                "{\"categories\":[{\"name\":\"A\",\"seats\":" + seats + ",\"priceCents\":2500}]}");
        assertThat(defined.status()).as(defined.raw().body()).isEqualTo(200);
        return event;
    }

    protected TestShopper shopper(String eventId) {
        String session = "s-" + UUID.randomUUID();
        String visitor = "v-" + UUID.randomUUID();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String token = ISSUER.issue(new AdmissionClaims(
                eventId,
                1,
                "g-" + UUID.randomUUID(),
                session,
                visitor,
                now.minusSeconds(5),
                now.plus(Duration.ofMinutes(10)),
                UUID.randomUUID().toString()));
        return new TestShopper(eventId, session, visitor, token);
    }

    /** A token valid for the next five minutes, signed by {@code issuer}, for a session of a sale generation. */
    protected static String liveToken(
            AdmissionTokenIssuer issuer, String eventId, long generation, String session, String visitor) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        return issuer.issue(new AdmissionClaims(
                eventId,
                generation,
                "g",
                session,
                visitor,
                now.minusSeconds(1),
                now.plus(Duration.ofMinutes(5)),
                UUID.randomUUID().toString()));
    }

    /** The same session's token, expired an hour ago (past the verifier's skew). */
    protected static String expiredTokenOf(TestShopper shopper) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        return ISSUER.issue(new AdmissionClaims(
                shopper.eventId(),
                1,
                "g-" + UUID.randomUUID(),
                shopper.sessionId(),
                shopper.visitor(),
                now.minus(Duration.ofHours(2)),
                now.minus(Duration.ofHours(1)),
                UUID.randomUUID().toString()));
    }

    protected Response shop(TestShopper shopper, String method, String path, String body, String... headers) {
        return send(
                method, "/events/" + shopper.eventId() + "/shop" + path, "Bearer " + shopper.token(), body, headers);
    }

    protected Response hold(TestShopper shopper, String... seats) {
        StringBuilder body = new StringBuilder("{\"seatIds\":[");
        for (int i = 0; i < seats.length; i++) {
            body.append(i == 0 ? "" : ",").append('"').append(seats[i]).append('"');
        }
        return shop(shopper, "POST", "/holds", body.append("]}").toString());
    }

    protected Response order(TestShopper shopper, String holdId, String... headers) {
        return shop(shopper, "POST", "/orders", "{\"holdId\":\"" + holdId + "\"}", headers);
    }

    /** A new shopper's hold on {@code seats} and the order under way for it. */
    public record Checkout(TestShopper shopper, String holdId, String orderId, String attemptId, long amountCents) {}

    protected Checkout checkout(String event, String... seats) {
        TestShopper shopper = shopper(event);
        Response held = hold(shopper, seats);
        assertThat(held.status()).as(held.raw().body()).isEqualTo(201);
        Response ordered = order(shopper, held.text("holdId"));
        assertThat(ordered.status()).as(ordered.raw().body()).isEqualTo(201);
        assertThat(ordered.text("state")).isEqualTo("PENDING_PAYMENT");
        return new Checkout(
                shopper,
                held.text("holdId"),
                ordered.text("orderId"),
                ordered.json().get("payment").get("attemptId").asString(),
                ordered.json().get("amountCents").asLong());
    }

    /** The provider reports {@code outcome} for the checkout's payment attempt, with a webhook id of its own. */
    protected Response pay(Checkout checkout, String outcome) {
        return webhook("wh-" + UUID.randomUUID(), checkout.attemptId(), outcome, checkout.amountCents());
    }

    /** A request as the gateway forwards it: see {@link #asGateway}. */
    protected Response send(String method, String path, String authorization, String body, String... headers) {
        String[] forwarded = asGateway(method, path, authorization, headers);
        return sendDirect(method, path, authorization, body, forwarded);
    }

    /** A request exactly as given: what reaches booking when the gateway is bypassed. */
    protected Response sendDirect(String method, String path, String authorization, String body, String... headers) {
        HttpRequest.Builder request =
                http.request(method, URI.create("http://127.0.0.1:" + port + path), body, headers);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return execute(request.build());
    }

    /**
     * {@code headers} with what the gateway adds to a request it forwards: on a shop route the {@code
     * Waitroom-Admission} header for this method and path, naming the event, session, visitor and sale generation of
     * the admission token (read without verifying it: the gateway's checks are the gateway's tests), scope {@code
     * order-status} for an expired token (what the gateway's order-status route signs for one within its grace), {@code
     * shopping} otherwise, and none without a token; on any other route the internal credential. A header the test sets
     * itself is kept as it is.
     */
    protected static String[] asGateway(String method, String path, String authorization, String... headers) {
        List<String> all = new ArrayList<>(List.of(headers));
        String rawPath = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String[] segments = rawPath.split("/");
        boolean shop = segments.length >= 4 && segments[1].equals("events") && segments[3].equals("shop");
        if (!shop) {
            if (header(headers, Headers.INTERNAL) == null) {
                all.add(Headers.INTERNAL);
                all.add(TestSecrets.GATEWAY.credential());
            }
            return all.toArray(String[]::new);
        }
        String token = authorization != null && authorization.startsWith("Bearer ")
                ? authorization.substring("Bearer ".length())
                : cookieToken(header(headers, "Cookie"));
        JsonNode claims = unverifiedClaims(token);
        if (claims != null && header(headers, AdmissionHeader.NAME) == null) {
            boolean orderStatus = claims.get("exp").asLong() < Instant.now().getEpochSecond();
            all.add(AdmissionHeader.NAME);
            all.add(admissionHeader(
                    claims.get("evt").asString(),
                    claims.get("sid").asString(),
                    claims.get("sub").asString(),
                    claims.get("gen").asLong(),
                    orderStatus ? AdmissionHeader.Scope.ORDER_STATUS : AdmissionHeader.Scope.SHOPPING,
                    method,
                    rawPath,
                    Instant.now()));
        }
        return all.toArray(String[]::new);
    }

    /** A {@code Waitroom-Admission} header as the gateway signs it, with the key booking trusts. */
    protected static String admissionHeader(
            String eventId,
            String sessionId,
            String visitor,
            long generation,
            AdmissionHeader.Scope scope,
            String method,
            String rawPath,
            Instant now) {
        return TestSecrets.ADMISSION_HEADERS.sign(AdmissionHeader.forRequest(
                "booking", eventId, sessionId, visitor, generation, scope, method, rawPath, now));
    }

    private static String cookieToken(String cookie) {
        return cookie != null && cookie.startsWith("wr_at=") ? cookie.substring("wr_at=".length()) : null;
    }

    /** The claims of a JWT, not verified; {@code null} for anything that is not one with evt, sid, sub, gen and exp. */
    private static JsonNode unverifiedClaims(String token) {
        if (token == null) {
            return null;
        }
        String[] parts = token.split("\\.");
        try {
            JsonNode claims = CLAIMS_READER.readTree(Base64.getUrlDecoder().decode(parts[1]));
            return claims.hasNonNull("evt")
                            && claims.hasNonNull("sid")
                            && claims.hasNonNull("sub")
                            && claims.hasNonNull("gen")
                            && claims.hasNonNull("exp")
                    ? claims
                    : null;
        } catch (RuntimeException notAJwt) {
            return null;
        }
    }

    private static String header(String[] headers, String name) {
        for (int i = 0; i + 1 < headers.length; i += 2) {
            if (headers[i].equalsIgnoreCase(name)) {
                return headers[i + 1];
            }
        }
        return null;
    }

    protected Response execute(HttpRequest request) {
        HttpResponse<String> response = http.send(request);
        String text = response.body();
        boolean isJson =
                response.headers().firstValue("Content-Type").orElse("").contains("json");
        JsonNode node = text == null || text.isBlank() || !isJson ? json.nullNode() : json.readTree(text);
        return new Response(response.statusCode(), response, node);
    }

    /** Posts a provider webhook signed with the service's secret. */
    protected Response webhook(String webhookId, String attemptId, String outcome, long amountCents) {
        String body = "{\"webhookId\":\"" + webhookId + "\",\"paymentAttemptId\":\"" + attemptId + "\",\"outcome\":\""
                + outcome + "\",\"amountCents\":" + amountCents + "}";
        return signedWebhook(
                body, WebhookSignature.of(TestSecrets.WEBHOOK_KEY).sign(body.getBytes(StandardCharsets.UTF_8)));
    }

    protected Response signedWebhook(String body, String signature) {
        HttpRequest.Builder request =
                http.request("POST", URI.create("http://127.0.0.1:" + port + "/webhooks/payments"), body);
        if (signature != null) {
            request.header(Headers.PAYMENT_SIGNATURE, signature);
        }
        return execute(request.build());
    }

    /** Moves a hold's deadline into the past, as if its time had run out (the database clock decides expiry). */
    protected void lapse(String holdId) {
        UUID id = UUID.fromString(holdId);
        jdbc.sql("UPDATE holds SET expires_at = now() - interval '1 second' WHERE hold_id = :h")
                .param("h", id)
                .update();
        jdbc.sql("UPDATE seats SET held_until = now() - interval '1 second' WHERE hold_id = :h")
                .param("h", id)
                .update();
    }

    protected String seatState(String eventId, String seatId) {
        return jdbc.sql("SELECT state FROM seats WHERE event_id = :e AND seat_id = :s")
                .param("e", eventId)
                .param("s", seatId)
                .query(String.class)
                .single();
    }

    protected Map<String, Object> seatRow(String eventId, String seatId) {
        return jdbc.sql("SELECT state, hold_id, order_id FROM seats WHERE event_id = :e AND seat_id = :s")
                .param("e", eventId)
                .param("s", seatId)
                .query()
                .singleRow();
    }

    protected int count(String sql, Object... params) {
        var spec = jdbc.sql(sql);
        for (Object param : params) {
            spec = spec.param(param);
        }
        return spec.query(Integer.class).single();
    }

    protected static List<String> seats(String category, int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            ids.add(category + "-" + i);
        }
        return ids;
    }
}
