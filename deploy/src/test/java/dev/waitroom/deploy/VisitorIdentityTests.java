package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A visitor never loses a place or a session to their own browser (issue 26; docs/design/architecture.md#identity), on the
 * launcher's real stack (embedded PostgreSQL and Redis, the four service jars) over HTTP through the gateway: the
 * visitor id is stable, so a claim in one event keeps the place in every other; a claim is idempotent for the browser
 * that holds the offer (its claim key, sent as {@code Idempotency-Key}, or its admission cookie), concurrent or after a
 * lost answer; a copied visitor cookie alone yields no token; one live place per event and browser; one admission
 * cookie per event, so a buyer admitted to two events shops both.
 */
@StackTest
@ExtendWith(SharedStack.class)
class VisitorIdentityTests {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private static LocalStack stack;

    @BeforeAll
    static void useTheSharedStack(LocalStack shared) {
        stack = shared;
    }

    @Test
    void aClaimInOneEventKeepsTheVisitorsPlaceInAnother() throws Exception {
        String a = openEvent("id-a", 5, null);
        String b = openEvent("id-b", 5, Instant.now().plus(Duration.ofHours(1)));
        Visitor browser = new Visitor();
        String receiptA = browser.join(a, 201);
        String receiptB = browser.join(b, 201);

        browser.awaitOffer(a);
        HttpResponse<String> claimed = browser.claim(a, browser.claimKey);
        assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);

        // the next poll of B finds the same place (the page would rejoin on a 404 and go to the back)
        HttpResponse<String> status = browser.status(b);
        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        assertThat(json(status).path("state").asString()).isEqualTo("WAITING");
        assertThat(json(status).path("receipt").asString()).isEqualTo(receiptB);
        // a poll the edge cannot answer from the ticket goes to the queue-service, which knows the same visitor
        HttpResponse<String> forwarded = send(
                HttpClient.newHttpClient(),
                request("/events/" + b + "/queue/status")
                        .header("Cookie", browser.visitorCookie())
                        .GET()
                        .build());
        assertThat(forwarded.statusCode()).as(forwarded.body()).isEqualTo(200);
        assertThat(forwarded.headers().firstValue("X-Waitroom-Status-Source")).contains("queue");
        assertThat(json(forwarded).path("receipt").asString()).isEqualTo(receiptB);
        assertThat(browser.join(b, 200)).isEqualTo(receiptB);
        assertThat(browser.join(a, 200)).isEqualTo(receiptA);
        assertThat(live(b).path("waiting").asLong()).isEqualTo(1);
    }

    @Test
    void aBuyerAdmittedToTwoEventsShopsBoth() throws Exception {
        String a = openEvent("two-a", 5, null);
        String b = openEvent("two-b", 5, null);
        Visitor browser = new Visitor();
        browser.join(a, 201);
        browser.join(b, 201);
        browser.awaitOffer(a);
        browser.awaitOffer(b);

        assertThat(browser.claim(a, browser.claimKey).statusCode()).isEqualTo(200);
        assertThat(browser.claim(b, browser.claimKey).statusCode()).isEqualTo(200);

        // with the cookies alone, as the shop page does: each event's admission cookie goes to its own routes
        for (String event : List.of(a, b)) {
            HttpResponse<String> seats = browser.get("/events/" + event + "/shop/seats");
            assertThat(seats.statusCode()).as(event + ": " + seats.body()).isEqualTo(200);
            HttpResponse<String> renewed = browser.post("/events/" + event + "/shopping-session/renew");
            assertThat(renewed.statusCode()).as(event + ": " + renewed.body()).isEqualTo(200);
        }
        // one admission cookie per event, each for the whole site (its protected paths may be anywhere)
        for (String event : List.of(a, b)) {
            assertThat(browser.cookies("wr_at_" + event))
                    .extracting(HttpCookie::getPath)
                    .containsExactly("/");
        }
        assertThat(browser.cookies("wr_at")).isEmpty();
        assertThat(live(a).path("active").asLong()).isEqualTo(1);
        assertThat(live(b).path("active").asLong()).isEqualTo(1);
    }

    @Test
    void sixteenConcurrentClaimsOfOneOfferConvergeOnOneSession() throws Exception {
        String event = openEvent("burst", 5, null);
        Visitor browser = new Visitor();
        browser.join(event, 201);
        browser.awaitOffer(event);

        List<HttpResponse<String>> answers = browser.claimConcurrently(event, 16);
        Set<String> sessions = new HashSet<>();
        List<HttpResponse<String>> limited = new ArrayList<>();
        for (HttpResponse<String> answer : answers) {
            assertThat(answer.statusCode()).as(answer.body()).isIn(200, 429);
            if (answer.statusCode() == 200) {
                sessions.add(json(answer).path("sessionId").asString());
                assertThat(json(answer).path("token").asString()).isNotBlank();
            } else {
                assertThat(answer.headers().firstValue("Retry-After")).isPresent();
                limited.add(answer);
            }
        }
        // the limited ones come back after Retry-After, as the page does, and get the same session
        for (HttpResponse<String> refused : limited) {
            long wait =
                    Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
            await().pollDelay(Duration.ofSeconds(wait))
                    .atMost(Duration.ofSeconds(wait + 30))
                    .until(() -> {
                        HttpResponse<String> retry = browser.claim(event, browser.claimKey);
                        if (retry.statusCode() == 429) {
                            return false;
                        }
                        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
                        sessions.add(json(retry).path("sessionId").asString());
                        return true;
                    });
        }
        assertThat(sessions).as("one session for the one browser").hasSize(1);
        JsonNode live = live(event);
        assertThat(live.path("active").asLong()).isEqualTo(1);
        assertThat(live.path("offered").asLong()).isZero();
        assertThat(browser.get("/events/" + event + "/shop/seats").statusCode()).isEqualTo(200);
    }

    @Test
    void aClaimWhoseAnswerWasLostIsRetriedToTheSameSession() throws Exception {
        String event = openEvent("lost", 5, null);
        Visitor browser = new Visitor();
        browser.join(event, 201);
        browser.awaitOffer(event);

        // the claim reaches the coordinator, its answer never reaches the browser: the browser keeps what it had
        HttpResponse<String> lost = send(
                HttpClient.newHttpClient(),
                request("/events/" + event + "/admission/claim")
                        .header("Cookie", browser.visitorCookie())
                        .header("Idempotency-Key", browser.claimKey)
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build());
        assertThat(lost.statusCode()).as(lost.body()).isEqualTo(200);
        assertThat(browser.cookies("wr_at_" + event)).isEmpty();

        HttpResponse<String> retry = browser.claim(event, browser.claimKey);
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
        assertThat(json(retry).path("sessionId").asString())
                .isEqualTo(json(lost).path("sessionId").asString());
        assertThat(browser.cookies("wr_at_" + event)).hasSize(1);
        assertThat(browser.get("/events/" + event + "/shop/seats").statusCode()).isEqualTo(200);
        assertThat(live(event).path("active").asLong()).isEqualTo(1);
    }

    @Test
    void theVisitorCookieAloneYieldsNoTokenForTheSession() throws Exception {
        String event = openEvent("stolen", 5, null);
        Visitor victim = new Visitor();
        victim.join(event, 201);
        victim.awaitOffer(event);
        HttpResponse<String> claimed = victim.claim(event, victim.claimKey);
        assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);

        // a fresh browser with a copy of the visitor cookie only
        HttpClient thief = HttpClient.newHttpClient();
        String stolen = victim.visitorCookie();
        HttpResponse<String> claim = send(
                thief,
                request("/events/" + event + "/admission/claim")
                        .header("Cookie", stolen)
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build());
        assertThat(claim.statusCode()).as(claim.body()).isEqualTo(409);
        assertThat(claim.body()).contains("offer-claimed").doesNotContain("\"token\"");
        assertThat(claim.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("wr_at"));
        HttpResponse<String> renew = send(
                thief,
                request("/events/" + event + "/shopping-session/renew")
                        .header("Cookie", stolen)
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build());
        assertThat(renew.statusCode()).isEqualTo(401);
        assertThat(renew.body()).doesNotContain("\"token\"");
        HttpResponse<String> shop = send(
                thief,
                request("/events/" + event + "/shop/seats")
                        .header("Cookie", stolen)
                        .GET()
                        .build());
        assertThat(shop.statusCode()).isEqualTo(401);

        // the victim's session is untouched
        assertThat(victim.get("/events/" + event + "/shop/seats").statusCode()).isEqualTo(200);
        assertThat(live(event).path("active").asLong()).isEqualTo(1);
    }

    @Test
    void aRejoinWhileOfferedOrActiveReturnsTheSameEntry() throws Exception {
        String event = openEvent("rejoin", 5, null);
        Visitor browser = new Visitor();
        String receipt = browser.join(event, 201);
        browser.awaitOffer(event);
        assertThat(browser.join(event, 200)).isEqualTo(receipt);

        assertThat(browser.claim(event, browser.claimKey).statusCode()).isEqualTo(200);
        HttpResponse<String> again = browser.post("/events/" + event + "/queue");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(json(again).path("receipt").asString()).isEqualTo(receipt);
        assertThat(json(again).path("state").asString()).isEqualTo("ACTIVE");

        // offers keep coming for a while: never a second entry, so never a second session for this browser
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> {
            JsonNode live = live(event);
            return live.path("active").asLong() == 1 && live.path("offered").asLong() == 0;
        });
        assertThat(live(event).path("waiting").asLong()).isZero();
    }

    /** One browser: a cookie jar, and the claim key its waiting page keeps in localStorage. */
    private static final class Visitor {

        final CookieManager jar = new CookieManager();

        final HttpClient http = HttpClient.newBuilder().cookieHandler(jar).build();

        final String claimKey = UUID.randomUUID().toString().replace("-", "");

        String join(String event, int expectedStatus) throws Exception {
            HttpResponse<String> joined = post("/events/" + event + "/queue");
            assertThat(joined.statusCode()).as(joined.body()).isEqualTo(expectedStatus);
            return json(joined).path("receipt").asString();
        }

        HttpResponse<String> status(String event) throws Exception {
            return get("/events/" + event + "/queue/status");
        }

        void awaitOffer(String event) {
            await().atMost(Duration.ofSeconds(45))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        HttpResponse<String> status = status(event);
                        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
                        assertThat(json(status).path("state").asString()).isEqualTo("OFFERED");
                    });
        }

        HttpResponse<String> claim(String event, String key) throws Exception {
            return send(
                    http,
                    request("/events/" + event + "/admission/claim")
                            .header("Idempotency-Key", key)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build());
        }

        List<HttpResponse<String>> claimConcurrently(String event, int claims) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(claims);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<HttpResponse<String>>> answers = new ArrayList<>();
                for (int i = 0; i < claims; i++) {
                    answers.add(pool.submit(() -> {
                        start.await();
                        return claim(event, claimKey);
                    }));
                }
                start.countDown();
                List<HttpResponse<String>> out = new ArrayList<>();
                for (Future<HttpResponse<String>> answer : answers) {
                    out.add(answer.get());
                }
                return out;
            } finally {
                pool.shutdownNow();
            }
        }

        HttpResponse<String> get(String path) throws Exception {
            return send(http, request(path).GET().build());
        }

        HttpResponse<String> post(String path) throws Exception {
            return send(
                    http,
                    request(path)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build());
        }

        List<HttpCookie> cookies(String name) {
            return jar.getCookieStore().getCookies().stream()
                    .filter(c -> c.getName().equals(name))
                    .toList();
        }

        /** The visitor cookie as a {@code Cookie} header pair: what a thief copies, or a lost answer leaves. */
        String visitorCookie() {
            List<HttpCookie> visitor = cookies("wr_vid");
            assertThat(visitor).hasSize(1);
            return "wr_vid=" + visitor.get(0).getValue();
        }
    }

    private static String openEvent(String prefix, int ceiling, Instant opensAt) throws Exception {
        String eventId = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        String body = """
                {"eventId":"%s","name":"Identity","opensAt":%s,"maxActiveSessions":%d,"maxAdmissionsPerSecond":5,
                 "offerTtlSeconds":60,"sessionTtlSeconds":120,"sessionMaxSeconds":600,"presaleOrdering":"FIFO",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(eventId, opensAt == null ? "null" : "\"" + opensAt + "\"", ceiling);
        HttpResponse<String> created = TestStacks.ops(stack, stack.gatewayUrl(), "POST", "/admin/events", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> inventory = TestStacks.ops(
                stack,
                stack.gatewayUrl(),
                "PUT",
                "/admin/events/" + eventId + "/inventory",
                "{\"categories\":[{\"name\":\"Floor\",\"seats\":5,\"priceCents\":5000}]}");
        assertThat(inventory.statusCode() / 100).as(inventory.body()).isEqualTo(2);
        return eventId;
    }

    /** The ops live view of an event. */
    private static JsonNode live(String eventId) throws Exception {
        HttpResponse<String> view = TestStacks.ops(stack, stack.gatewayUrl(), "GET", "/admin/events/" + eventId, null);
        assertThat(view.statusCode()).as(view.body()).isEqualTo(200);
        return json(view);
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path)).timeout(Duration.ofSeconds(15));
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }
}
