package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.testsupport.BodyFuzzer;
import dev.waitroom.testsupport.MvcRoutes;
import dev.waitroom.testsupport.MvcRoutes.Route;
import dev.waitroom.testsupport.RouteFuzz;
import dev.waitroom.testsupport.UnchangedState;
import dev.waitroom.tokens.VisitorId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.node.ObjectNode;

/**
 * Bad input never costs a 5xx (docs/design/security/input.md): every route of the queue-service, read from its request
 * mappings, gets the seeded malformed bodies and path variables of {@link BodyFuzzer} with the internal credential and
 * a visitor, so the body is really read. Each answer is below 500, each 4xx a problem with a type, and nothing in
 * Redis changes: no key appears or goes, the event's counts and public status stay as they were. Repeat a run with
 * {@code -Dfuzz.seed=<the printed seed>}.
 */
@QueueServiceTest
class MalformedRequestFuzzTests {

    /** The queue's body limit ({@code waitroom.web.max-body-size}). */
    static final int MAX_BODY = 8 * 1024;

    static final String COMMITMENT = "5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9";

    private static final String KEY_COUNT = "redis keys";

    /**
     * The join body is an optional JSON object nobody reads, taken whatever its declared type and read as text (an
     * invalid byte becomes U+FFFD); the member's join answers its existing entry and changes nothing.
     */
    static final Set<String> JOIN_ACCEPTS = Set.of(
            "invalid UTF-8 in a value",
            "no content type",
            "content type text/plain",
            "content type application/xml",
            "content type application/x-www-form-urlencoded",
            "content type multipart/form-data; boundary=x",
            "content type application/octet-stream");

    private final QueueClient client;

    @LocalServerPort
    int port;

    @Autowired
    RedissonClient redis;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    String event;
    String member;
    String entry;

    MalformedRequestFuzzTests(QueueClient client) {
        this.client = client;
    }

    /** A scheduled event (no draw, no offer can apply) with one member waiting in its pre-sale group. */
    @BeforeEach
    void oneEventWithAMember() {
        event = QueueClient.newEventId("fuzz");
        QueueClient.Reply pushed =
                client.internal("PUT", "/internal/events/" + event, new String(BodyFuzzer.json(push())));
        assertThat(pushed.status()).as(pushed.body()).isEqualTo(200);
        member = VisitorId.random().value();
        QueueClient.Reply joined = client.join(event, member);
        assertThat(joined.status()).as(joined.body()).isEqualTo(201);
        entry = joined.receipt();
    }

    static Map<String, Object> push() {
        Map<String, Object> push = new LinkedHashMap<>();
        push.put("phase", "SCHEDULED");
        push.put("mode", "QUEUEING");
        push.put("announcement", "Doors open at seven");
        push.put("saleGeneration", 1);
        push.put("commitment", COMMITMENT);
        push.put("identityScope", "BROWSER");
        push.put("expiredOfferPolicy", "REQUEUE_ONCE");
        push.put("presaleOrdering", "RANDOM");
        push.put("admissionRatePerSecond", 10.5);
        push.put("offerTtlSeconds", 60);
        push.put("opensAt", "2030-01-01T10:00:00Z");
        push.put("name", "Spring Gala");
        push.put("afterPurchase", "RELEASE");
        push.put("soldOutCategories", List.of("Floor"));
        return push;
    }

    /** A body of every route that reads one; each is refused as it stands or changes nothing (scheduled event). */
    private Map<String, Map<String, Object>> samples() {
        Map<String, Map<String, Object>> samples = new TreeMap<>();
        samples.put("POST /events/{eventId}/queue", Map.of());
        samples.put("PUT /internal/events/{eventId}", push());
        samples.put("POST /internal/events/{eventId}/draw", Map.of("seed", "00".repeat(32)));
        samples.put(
                "POST /internal/events/{eventId}/offers",
                Map.of(
                        "offers",
                        List.of(Map.of("entryId", entry, "grantId", "g-1", "expiresAt", "2030-01-01T00:00:00Z"))));
        samples.put(
                "POST /internal/events/{eventId}/entries/{entryId}/transition",
                Map.of("to", "ACTIVE", "grantId", "g-1"));
        samples.put("POST /internal/events/{eventId}/liveness", Map.of("seen", List.of(List.of(entry, member))));
        return samples;
    }

    @Test
    void malformedBodiesAndPathsOnEveryRouteAreRefusedWithAProblemAndChangeNothing() {
        BodyFuzzer fuzzer = BodyFuzzer.seeded("queue-service", MAX_BODY);
        Map<String, Map<String, Object>> samples = samples();
        List<Route> routes = MvcRoutes.of(this.mappings);
        assertThat(routes)
                .extracting(Route::key)
                .contains("POST /events/{eventId}/queue", "PUT /internal/events/{eventId}");
        UnchangedState<Map<String, String>> unchanged =
                new UnchangedState<>(this::fingerprint, MalformedRequestFuzzTests::changed);
        RouteFuzz.Routes service = new RouteFuzz.Routes(
                "queue-service",
                "http://127.0.0.1:" + port,
                samples,
                (route, variable) -> valueOf(variable),
                (route, path, c) -> credentials(route),
                (route, c) -> route.key().equals("POST /events/{eventId}/queue") && JOIN_ACCEPTS.contains(c.name()),
                (route, c) -> false);
        List<String> faults = RouteFuzz.faults(fuzzer, routes, service, unchanged);
        assertThat(faults).as(fuzzer.report(faults)).isEmpty();
    }

    /**
     * What differs: the event's keys, counts and status exactly; the number of keys in all of Redis only when it grew.
     */
    private static String changed(Map<String, String> before, Map<String, String> after) {
        if (withoutKeyCount(after).equals(withoutKeyCount(before)) && keyCount(after) <= keyCount(before)) {
            return "";
        }
        return before + " -> " + after;
    }

    /**
     * The internal credential, and a visitor: the member where its answer changes nothing (join finds its entry,
     * status reads it), a stranger elsewhere (leave must not take the member out).
     */
    private String[] credentials(Route route) {
        boolean member = route.key().equals("POST /events/{eventId}/queue")
                || route.key().equals("GET /events/{eventId}/queue/status");
        return new String[] {
            Headers.INTERNAL,
            TestSecrets.credentialFor(route.method(), route.pattern()),
            Headers.VISITOR,
            member ? this.member : VisitorId.random().value()
        };
    }

    /**
     * The number of keys in all of Redis may only fall while a request runs: keys other tests of this JVM made with a
     * lifetime (a join ceiling's window lives two windows, up to 40 s in JoinCeilingTests) expire on their own. The
     * event's own keys are compared exactly.
     */
    private static long keyCount(Map<String, String> fingerprint) {
        return Long.parseLong(fingerprint.get(KEY_COUNT));
    }

    private static Map<String, String> withoutKeyCount(Map<String, String> fingerprint) {
        Map<String, String> rest = new TreeMap<>(fingerprint);
        rest.remove(KEY_COUNT);
        return rest;
    }

    /** The keys of the event and their number in all of Redis, the event's counts and its public status. */
    private Map<String, String> fingerprint() {
        Map<String, String> state = new TreeMap<>();
        state.put(KEY_COUNT, String.valueOf(redis.getKeys().count()));
        state.put(
                "event keys",
                String.join(
                        " ",
                        redis.getKeys()
                                .getKeysStreamByPattern("wr:{" + event + "}*")
                                .sorted()
                                .toList()));
        ObjectNode counts = (ObjectNode) client.counts(event);
        counts.remove("oldestWaitSeconds"); // grows with the clock
        state.put("counts", counts.toString());
        state.put(
                "status",
                client.internal("GET", "/events/" + event + "/status", null).body());
        return state;
    }

    private String valueOf(String variable) {
        return switch (variable) {
            case "eventId" -> event;
            case "entryId" -> entry;
            default -> "fuzz-1";
        };
    }
}
