package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.payments.WebhookSignature;
import dev.waitroom.contract.Headers;
import dev.waitroom.testsupport.BodyFuzzer;
import dev.waitroom.testsupport.MvcRoutes;
import dev.waitroom.testsupport.MvcRoutes.Route;
import dev.waitroom.testsupport.RouteFuzz;
import dev.waitroom.testsupport.UnchangedState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Bad input never costs a 5xx (docs/design/security/input.md): every route of booking, read from its request
 * mappings, gets the seeded malformed bodies and path variables of {@link BodyFuzzer}, sent as the gateway forwards
 * them (internal credential, the shopper's admission token and a fresh assertion, the ops token, a valid webhook
 * signature over each body), so the body is really read. Each answer is below 500, each 4xx a problem with a type, and
 * nothing in PostgreSQL changes: no row appears or goes, the event's seats, holds and orders stay as they were, and
 * fault injection stays off. Repeat a run with {@code -Dfuzz.seed=<the printed seed>}.
 */
class MalformedRequestFuzzTests extends ShopTestSupport {

    /** Booking's body limit (the web kit's default). */
    static final int MAX_BODY = 16 * 1024;

    private static final String OPS = "Bearer " + TestSecrets.OPS_TOKEN;

    /**
     * The webhook body is the signed bytes whatever their declared type: the fixture's webhook, sent again, is a
     * duplicate that answers 200 and changes nothing.
     */
    static final Set<String> WEBHOOK_ACCEPTS = Set.of(
            "no content type",
            "content type text/plain",
            "content type application/xml",
            "content type application/x-www-form-urlencoded",
            "content type multipart/form-data; boundary=x",
            "content type application/json; charset=bogus-charset",
            "content type application/octet-stream");

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    String event;
    Checkout paid;
    String heldId;
    Map<String, Object> webhook;

    /** An event of ten seats: one paid order (its webhook applied), and an active hold of the same shopper. */
    @BeforeEach
    void anEventWithAPaidOrderAndAHold() {
        send("DELETE", "/admin/booking/faults", OPS, null);
        event = newEvent("fuzz", 10);
        paid = checkout(event, "A-1");
        webhook = new LinkedHashMap<>();
        webhook.put("webhookId", "wh-fuzz-" + event);
        webhook.put("paymentAttemptId", paid.attemptId());
        webhook.put("outcome", "SUCCEEDED");
        webhook.put("amountCents", paid.amountCents());
        Response applied = signedWebhook(new String(BodyFuzzer.json(webhook)), signature(BodyFuzzer.json(webhook)));
        assertThat(applied.status()).as(applied.raw().body()).isEqualTo(200);
        Response held = hold(paid.shopper(), "A-2");
        assertThat(held.status()).as(held.raw().body()).isEqualTo(201);
        heldId = held.text("holdId");
    }

    @AfterEach
    void faultsOff() {
        send("DELETE", "/admin/booking/faults", OPS, null);
    }

    private Map<String, Map<String, Object>> samples() {
        Map<String, Map<String, Object>> samples = new TreeMap<>();
        samples.put("POST /events/{eventId}/shop/holds", Map.of("seatIds", List.of("A-3", "A-4")));
        samples.put("POST /events/{eventId}/shop/orders", Map.of("holdId", heldId));
        samples.put(
                "PUT /admin/events/{eventId}/inventory",
                Map.of("categories", List.of(Map.of("name", "A", "seats", 10, "priceCents", 2500))));
        samples.put("PUT /admin/booking/faults", Map.of("latencyMs", 0, "errorRate", 0.0, "poolLimit", 0));
        samples.put("POST /webhooks/payments", webhook);
        return samples;
    }

    @Test
    void malformedBodiesAndPathsOnEveryRouteAreRefusedWithAProblemAndChangeNothing() {
        BodyFuzzer fuzzer = BodyFuzzer.seeded("booking-service", MAX_BODY);
        Map<String, Map<String, Object>> samples = samples();
        List<Route> routes = MvcRoutes.of(this.mappings);
        assertThat(routes)
                .extracting(Route::key)
                .contains("POST /events/{eventId}/shop/holds", "PUT /admin/events/{eventId}/inventory");
        UnchangedState<Map<String, String>> unchanged = UnchangedState.ofParts(this::fingerprint);
        RouteFuzz.Routes service = new RouteFuzz.Routes(
                "booking-service",
                "http://127.0.0.1:" + port,
                samples,
                (route, variable) -> valueOf(variable),
                this::headers,
                (route, c) -> route.key().equals("POST /webhooks/payments") && WEBHOOK_ACCEPTS.contains(c.name()),
                (route, c) -> false);
        List<String> faults = RouteFuzz.faults(fuzzer, routes, service, unchanged);
        assertThat(faults).as(fuzzer.report(faults)).isEmpty();
    }

    /** As the gateway forwards it: the credential, a token and its assertion or the ops token; a webhook signed. */
    private String[] headers(Route route, String path, BodyFuzzer.Case c) {
        String authorization =
                path.startsWith("/admin/") ? OPS : "Bearer " + paid.shopper().token();
        List<String> headers = new ArrayList<>();
        try {
            headers.addAll(List.of(asGateway(route.method(), path, authorization)));
        } catch (IllegalArgumentException noAssertionForThisPath) {
            // an event id no assertion can name (over 255 bytes): the gateway refuses it before forwarding
            headers.addAll(List.of(Headers.INTERNAL, TestSecrets.GATEWAY.credential()));
        }
        headers.add("Authorization");
        headers.add(authorization);
        headers.add(Headers.PAYMENT_SIGNATURE);
        headers.add(signature(c.body()));
        return headers.toArray(String[]::new);
    }

    private static String signature(byte[] body) {
        return WebhookSignature.of(TestSecrets.WEBHOOK_KEY).sign(body);
    }

    /**
     * Row counts of every table but the outbox, the rows of this event and its number of outbox rows (the sender
     * retries signals in the background, updating their attempts), and the fault settings.
     */
    private Map<String, String> fingerprint() {
        Map<String, String> state = new TreeMap<>();
        List<String> tables = jdbc.sql("SELECT table_name FROM information_schema.tables WHERE table_schema ="
                        + " current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'flyway%'"
                        + " AND table_name <> 'coordinator_outbox'")
                .query(String.class)
                .list();
        for (String table : tables) {
            state.put(
                    table + " rows",
                    jdbc.sql("SELECT count(*)::text FROM \"" + table + "\"")
                            .query(String.class)
                            .single());
        }
        for (String table : List.of("seat_categories", "seats", "holds", "orders", "sold_seats")) {
            state.put(
                    table + " of the event",
                    jdbc.sql("SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '')"
                                    + " FROM \"" + table + "\" t WHERE event_id = :e")
                            .param("e", event)
                            .query(String.class)
                            .single());
        }
        state.put(
                "coordinator_outbox rows of the event",
                jdbc.sql("SELECT count(*)::text FROM coordinator_outbox WHERE event_id = :e")
                        .param("e", event)
                        .query(String.class)
                        .single());
        state.put(
                "faults", send("GET", "/admin/booking/faults", OPS, null).raw().body());
        return state;
    }

    private String valueOf(String variable) {
        return switch (variable) {
            case "eventId" -> event;
            case "holdId" -> heldId;
            case "orderId" -> paid.orderId();
            default -> "fuzz-1";
        };
    }
}
