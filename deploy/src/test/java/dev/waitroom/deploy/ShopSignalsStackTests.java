package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.testsupport.TestTools;
import dev.waitroom.verifier.ShopSignals;
import dev.waitroom.verifier.SignalRefusedException;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shop signals end to end (issue 27, item 6; docs/integration/shop-signals.md) on the launcher's real stack through the
 * gateway: ops create an integration credential, two buyers are admitted through the waiting room, the Java client
 * ({@code waitroom-verifier}'s {@link ShopSignals}) reports one purchase and the Node client ({@code verifiers/node},
 * its {@code waitroom-signal} CLI under {@code node}) releases the other session, and the capacity returns (active drops
 * to zero, the next buyer is offered a place); a category and then the event are sold out; another event's credential
 * and a revoked one are refused by both clients.
 */
@StackTest
@ExtendWith(SharedStack.class)
class ShopSignalsStackTests {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private static final Path NODE_CLI = TestStacks.ROOT.resolve("verifiers/node/bin/waitroom-signal.js");

    private static LocalStack stack;

    /** The Node client's output files. */
    private static Path dataDir;

    @BeforeAll
    static void useTheSharedStack(LocalStack shared) throws IOException {
        stack = shared;
        dataDir = Files.createTempDirectory("waitroom-signals-test");
    }

    @AfterAll
    static void deleteOutputs() throws IOException {
        TestStacks.deleteTree(dataDir);
    }

    @Test
    void bothClientsReturnCapacityAndSellOutThroughTheGateway() throws Exception {
        String event = openEvent("signals", 2);
        String credential = createCredential(event);
        ShopSignals java = ShopSignals.of(URI.create(stack.gatewayUrl()), event, credential);

        Buyer first = Buyer.admitted(event);
        Buyer second = Buyer.admitted(event);
        Buyer third = new Buyer();
        third.join(event);
        assertThat(live(event).path("active").asLong()).isEqualTo(2);

        ShopSignals.SessionAnswer purchased = java.purchaseCompleted(first.sessionId, "order-" + first.sessionId);
        assertThat(purchased.state()).isEqualTo("COMPLETED");
        assertThat(purchased.live()).isFalse();
        assertThat(java.purchaseCompleted(first.sessionId, "order-" + first.sessionId)
                        .state())
                .as("idempotent")
                .isEqualTo("COMPLETED");
        assertThat(live(event).path("active").asLong()).isEqualTo(1);

        Node released = node(credential, event, "session-release", second.sessionId);
        assertThat(released.code()).as(released.stderr()).isZero();
        assertThat(released.json().path("state").asString()).isEqualTo("RELEASED");
        assertThat(released.json().path("live").asBoolean()).isFalse();
        assertThat(live(event).path("active").asLong()).isZero();
        // the capacity went back to the queue: the buyer waiting behind them is offered a place
        third.awaitOffer(event);

        Node floor = node(credential, event, "sold-out", "Floor");
        assertThat(floor.code()).as(floor.stderr()).isZero();
        assertThat(floor.json().path("soldOutCategories").toString()).isEqualTo("[\"Floor\"]");
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(
                                publicStatus(event).path("soldOutCategories").toString())
                        .isEqualTo("[\"Floor\"]"));

        ShopSignals.SoldOutAnswer soldOut = java.soldOut();
        assertThat(soldOut.mode()).isEqualTo("SOLD_OUT");
        assertThat(live(event).path("mode").asString()).isEqualTo("SOLD_OUT");
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() ->
                        assertThat(publicStatus(event).path("mode").asString()).isEqualTo("SOLD_OUT"));
    }

    @Test
    void anotherEventsCredentialAndARevokedOneAreRefusedByBothClients() throws Exception {
        String event = openEvent("signals-auth", 2);
        String other = openEvent("signals-other", 2);
        String credential = createCredential(event);
        String othersCredential = createCredential(other);
        Buyer buyer = Buyer.admitted(event);

        assertThatThrownBy(() -> ShopSignals.of(URI.create(stack.gatewayUrl()), event, othersCredential)
                        .purchaseCompleted(buyer.sessionId, "order-1"))
                .isInstanceOfSatisfying(SignalRefusedException.class, e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.problemType()).endsWith("/integration-credential-forbidden");
                });
        Node wrongEvent = node(othersCredential, event, "session-release", buyer.sessionId);
        assertThat(wrongEvent.code()).isEqualTo(1);
        assertThat(JSON.readTree(wrongEvent.stderr()).path("status").asInt()).isEqualTo(403);
        assertThat(live(event).path("active").asLong()).as("nothing released").isEqualTo(1);

        HttpResponse<String> revoked = TestStacks.ops(
                stack,
                stack.gatewayUrl(),
                "DELETE",
                "/admin/events/" + event + "/integration-credentials/" + credential.substring(5, 21),
                null);
        assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);
        assertThatThrownBy(() -> ShopSignals.of(URI.create(stack.gatewayUrl()), event, credential)
                        .sessionRelease(buyer.sessionId))
                .isInstanceOfSatisfying(SignalRefusedException.class, e -> {
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.problemType()).endsWith("/integration-credential-required");
                });
        Node afterRevoke = node(credential, event, "session-release", buyer.sessionId);
        assertThat(afterRevoke.code()).isEqualTo(1);
        assertThat(JSON.readTree(afterRevoke.stderr()).path("status").asInt()).isEqualTo(401);

        // an ops token is no integration credential, and an integration credential opens no ops route
        HttpResponse<String> withOpsToken = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        stack.gatewayUrl() + "/events/" + event + "/signals/session-release"))
                                .header(
                                        "Authorization",
                                        "Bearer " + stack.secrets().opsToken())
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"sessionId\":\"" + buyer.sessionId + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(withOpsToken.statusCode()).isEqualTo(401);
        HttpResponse<String> asOps = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + "/admin/events/" + other))
                                .header("Authorization", "Bearer " + othersCredential)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(asOps.statusCode()).isEqualTo(401);
        assertThat(live(event).path("active").asLong()).isEqualTo(1);
    }

    /** One browser through the waiting room: a cookie jar, joined, offered, claimed. */
    private static final class Buyer {

        final HttpClient http =
                HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

        String sessionId;

        static Buyer admitted(String event) throws Exception {
            Buyer buyer = new Buyer();
            buyer.join(event);
            buyer.awaitOffer(event);
            HttpResponse<String> claimed = buyer.post("/events/" + event + "/admission/claim");
            assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);
            buyer.sessionId = JSON.readTree(claimed.body()).path("sessionId").asString();
            assertThat(buyer.sessionId).isNotBlank();
            return buyer;
        }

        void join(String event) throws Exception {
            HttpResponse<String> joined = post("/events/" + event + "/queue");
            assertThat(joined.statusCode()).as(joined.body()).isEqualTo(201);
        }

        void awaitOffer(String event) {
            await().atMost(Duration.ofSeconds(45))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        HttpResponse<String> status = http.send(
                                request("/events/" + event + "/queue/status")
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
                        assertThat(JSON.readTree(status.body()).path("state").asString())
                                .isEqualTo("OFFERED");
                    });
        }

        HttpResponse<String> post(String path) throws Exception {
            return http.send(
                    request(path)
                            .header("Content-Type", "application/json")
                            .header(
                                    "Idempotency-Key",
                                    UUID.randomUUID().toString().replace("-", ""))
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    /** What the Node client's CLI printed, and how it exited. */
    record Node(int code, String stdout, String stderr) {

        JsonNode json() {
            return JSON.readTree(stdout);
        }
    }

    /** The Node client's CLI, {@code node verifiers/node/bin/waitroom-signal.js}, with the credential in its environment. */
    private static Node node(String credential, String event, String... signal) throws Exception {
        Path node = TestTools.require("node");
        List<String> command =
                new ArrayList<>(List.of(node.toString(), NODE_CLI.toString(), stack.gatewayUrl(), event));
        command.addAll(List.of(signal));
        Path out = Files.createTempFile(dataDir, "node", ".out");
        Path err = Files.createTempFile(dataDir, "node", ".err");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("WAITROOM_INTEGRATION_CREDENTIAL", credential);
        Process run = builder.start();
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("node finished").isTrue();
        return new Node(
                run.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static String openEvent(String prefix, int ceiling) throws Exception {
        String eventId = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        String body = """
                {"eventId":"%s","name":"Signals","opensAt":null,"maxActiveSessions":%d,"maxAdmissionsPerSecond":5,
                 "offerTtlSeconds":60,"sessionTtlSeconds":300,"sessionMaxSeconds":600,"presaleOrdering":"FIFO",
                 "identityScope":"BROWSER","expiredOfferPolicy":"REQUEUE_ONCE","afterPurchase":"RELEASE"}""".formatted(eventId, ceiling);
        HttpResponse<String> created = TestStacks.ops(stack, stack.gatewayUrl(), "POST", "/admin/events", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> inventory = TestStacks.ops(
                stack,
                stack.gatewayUrl(),
                "PUT",
                "/admin/events/" + eventId + "/inventory",
                "{\"categories\":[{\"name\":\"Floor\",\"seats\":5,\"priceCents\":5000},"
                        + "{\"name\":\"Balcony\",\"seats\":5,\"priceCents\":3000}]}");
        assertThat(inventory.statusCode() / 100).as(inventory.body()).isEqualTo(2);
        return eventId;
    }

    private static String createCredential(String eventId) throws Exception {
        HttpResponse<String> created = TestStacks.ops(
                stack,
                stack.gatewayUrl(),
                "POST",
                "/admin/events/" + eventId + "/integration-credentials",
                "{\"label\":\"stack test\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).path("secret").asString();
    }

    private static JsonNode live(String eventId) throws Exception {
        HttpResponse<String> view = TestStacks.ops(stack, stack.gatewayUrl(), "GET", "/admin/events/" + eventId, null);
        assertThat(view.statusCode()).as(view.body()).isEqualTo(200);
        return JSON.readTree(view.body());
    }

    private static JsonNode publicStatus(String eventId) throws Exception {
        HttpResponse<String> status = HttpClient.newHttpClient()
                .send(request("/events/" + eventId + "/status").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        return JSON.readTree(status.body());
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(stack.gatewayUrl() + path)).timeout(Duration.ofSeconds(15));
    }
}
