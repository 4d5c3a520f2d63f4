package dev.waitroom.coordinator.queue.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueRejectedException;
import dev.waitroom.coordinator.queue.QueueUnavailableException;
import dev.waitroom.tokens.VisitorId;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** The RestClient adapter against a real local HTTP server that speaks the queue-service internal contract. */
class RestClientQueueDirectoryTests {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private static final String TOKEN =
            dev.waitroom.testsupport.ServiceCredentials.generate("coordinator").credential();

    private HttpServer server;

    private final List<Recorded> requests = new CopyOnWriteArrayList<>();

    private final Map<String, Reply> replies = new ConcurrentHashMap<>();

    private final CountDownLatch never = new CountDownLatch(1);

    private QueueDirectory queue;

    record Recorded(String method, String path, String internal, String contentType, String body) {}

    record Reply(int status, String body) {}

    @BeforeEach
    void start() throws IOException {
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        this.server.createContext("/", this::handle);
        this.server.start();
        this.queue = RestClientQueueDirectory.of(
                RestClient.builder(),
                "http://127.0.0.1:" + this.server.getAddress().getPort(),
                TOKEN,
                Duration.ofMillis(500),
                Duration.ofMillis(400));
    }

    @AfterEach
    void stop() {
        this.never.countDown();
        this.server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getRequestURI().toString();
        this.requests.add(new Recorded(
                exchange.getRequestMethod(),
                path,
                exchange.getRequestHeaders().getFirst(Headers.INTERNAL),
                exchange.getRequestHeaders().getFirst("Content-Type"),
                body));
        Reply reply = this.replies.entrySet().stream()
                .filter(e -> path.startsWith(e.getKey()))
                .sorted((a, b) -> b.getKey().length() - a.getKey().length())
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(new Reply(404, "{\"type\":\"https://waitroom.dev/problems/not-found\"}"));
        if (reply.status() == 0) {
            try {
                this.never.await(); // a queue that hangs
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            reply = new Reply(200, "{}");
        }
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders()
                .set("Content-Type", reply.status() >= 400 ? "application/problem+json" : "application/json");
        exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
        exchange.close();
    }

    @Test
    void speaksTheContractWithTheInternalCredential() {
        this.replies.put(
                "/internal/events/e1/candidates",
                new Reply(
                        200,
                        "{\"entries\":[{\"entryId\":\"en1\",\"visitor\":\"AAAAAAAAAAAAAAAAAAAAAA\",\"orderKey\":7}]}"));
        this.replies.put(
                "/internal/events/e1/offers",
                new Reply(200, "{\"results\":[{\"entryId\":\"en1\",\"state\":\"OFFERED\"}]}"));
        this.replies.put(
                "/internal/events/e1/entries/en1/transition",
                new Reply(200, "{\"entryId\":\"en1\",\"state\":\"WAITING\"}"));
        this.replies.put("/internal/events/e1/draw", new Reply(200, "{\"presaleCount\":12,\"completed\":true}"));
        this.replies.put(
                "/internal/events/e1/counts",
                new Reply(
                        200,
                        "{\"waiting\":5,\"offered\":1,\"active\":2,\"completed\":3,\"left\":0,\"expired\":1,\"joins\":12,\"oldestWaitSeconds\":40,\"abandoned\":0}"));
        this.replies.put("/internal/events/e1", new Reply(200, "{\"phase\":\"OPEN\"}"));
        GrantId grant = GrantId.random();
        Instant deadline = Instant.parse("2026-06-01T10:00:30Z");

        List<QueueDirectory.Candidate> candidates = this.queue.candidates(EventId.of("e1"), 25);
        List<OfferResult> offers = this.queue.offer(
                EventId.of("e1"), List.of(new QueueDirectory.Offer(new EntryId("en1"), grant, deadline)));
        String state =
                this.queue.transition(EventId.of("e1"), new EntryId("en1"), TransitionTarget.OFFER_EXPIRED, grant);
        DrawResult draw = this.queue.draw(EventId.of("e1"), "ab".repeat(32));
        QueueCounts counts = this.queue.counts(EventId.of("e1"));
        this.queue.putEventState(
                EventId.of("e1"),
                EventUpdateRequest.of(
                        EventPhase.OPEN,
                        OperatingMode.QUEUEING,
                        "",
                        1,
                        "c0ffee",
                        null,
                        IdentityScope.BROWSER,
                        ExpiredOfferPolicy.REQUEUE_ONCE,
                        PresaleOrdering.RANDOM,
                        2.5,
                        30,
                        null,
                        JoinGate.OPEN,
                        null,
                        AfterPurchase.DEFAULT,
                        null,
                        null));

        assertThat(candidates)
                .containsExactly(
                        new QueueDirectory.Candidate(new EntryId("en1"), new VisitorId("AAAAAAAAAAAAAAAAAAAAAA"), 7));
        assertThat(offers).containsExactly(new OfferResult("en1", "OFFERED", null));
        assertThat(state).isEqualTo("WAITING");
        assertThat(draw).isEqualTo(new DrawResult(12, true));
        assertThat(counts.waiting()).isEqualTo(5);
        assertThat(counts.oldestWaitSeconds()).isEqualTo(40);
        assertThat(this.requests).allSatisfy(r -> assertThat(r.internal()).isEqualTo(TOKEN));
        assertThat(this.requests)
                .extracting(Recorded::method, Recorded::path)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("GET", "/internal/events/e1/candidates?limit=25"),
                        org.assertj.core.groups.Tuple.tuple("POST", "/internal/events/e1/offers"),
                        org.assertj.core.groups.Tuple.tuple("POST", "/internal/events/e1/entries/en1/transition"),
                        org.assertj.core.groups.Tuple.tuple("POST", "/internal/events/e1/draw"),
                        org.assertj.core.groups.Tuple.tuple("GET", "/internal/events/e1/counts"),
                        org.assertj.core.groups.Tuple.tuple("PUT", "/internal/events/e1"));
        JsonNode offerBody = JSON.readTree(this.requests.get(1).body());
        assertThat(offerBody.path("offers").get(0).path("entryId").asString()).isEqualTo("en1");
        assertThat(offerBody.path("offers").get(0).path("grantId").asString()).isEqualTo(grant.toString());
        assertThat(Instant.parse(
                        offerBody.path("offers").get(0).path("expiresAt").asString()))
                .isEqualTo(deadline);
        JsonNode transition = JSON.readTree(this.requests.get(2).body());
        assertThat(transition.path("to").asString()).isEqualTo("OFFER_EXPIRED");
        assertThat(transition.path("grantId").asString()).isEqualTo(grant.toString());
        assertThat(JSON.readTree(this.requests.get(3).body()).path("seed").asString())
                .isEqualTo("ab".repeat(32));
        JsonNode pushed = JSON.readTree(this.requests.get(5).body());
        assertThat(pushed.path("admissionRatePerSecond").asDouble()).isEqualTo(2.5);
        assertThat(pushed.path("seed").isNull()).isTrue();
        assertThat(pushed.path("saleGeneration").asLong()).isEqualTo(1);
        assertThat(this.requests.get(1).contentType()).startsWith("application/json");
    }

    @Test
    void aRefusalIsRejectedAndAnOutageIsUnavailable() {
        this.replies.put(
                "/internal/events/e2/entries", new Reply(409, "{\"type\":\"https://waitroom.dev/problems/conflict\"}"));
        this.replies.put("/internal/events/e2/counts", new Reply(503, "{}"));
        this.replies.put("/internal/events/e2/candidates", new Reply(403, "{}"));

        assertThatThrownBy(() -> this.queue.transition(
                        EventId.of("e2"), new EntryId("x"), TransitionTarget.ACTIVE, GrantId.random()))
                .isInstanceOf(QueueRejectedException.class);
        assertThatThrownBy(() -> this.queue.counts(EventId.of("e2"))).isInstanceOf(QueueUnavailableException.class);
        assertThatThrownBy(() -> this.queue.candidates(EventId.of("e2"), 1))
                .as("a credential problem is retried, not dropped")
                .isInstanceOf(QueueUnavailableException.class);
    }

    @Test
    void aCandidateWithAMalformedVisitorIsUnavailableNotOffered() {
        this.replies.put(
                "/internal/events/e5/candidates",
                new Reply(200, "{\"entries\":[{\"entryId\":\"en1\",\"visitor\":\"not-a-visitor\",\"orderKey\":1}]}"));
        assertThatThrownBy(() -> this.queue.candidates(EventId.of("e5"), 1))
                .isInstanceOf(QueueUnavailableException.class);
    }

    @Test
    void aCandidateWithAMalformedEntryIdIsUnavailableNotOffered() {
        this.replies.put(
                "/internal/events/e6/candidates",
                new Reply(
                        200,
                        "{\"entries\":[{\"entryId\":\"en-1\",\"visitor\":\"AAAAAAAAAAAAAAAAAAAAAA\",\"orderKey\":1}]}"));
        assertThatThrownBy(() -> this.queue.candidates(EventId.of("e6"), 1))
                .isInstanceOf(QueueUnavailableException.class);
    }

    @Test
    void aHangingQueueTimesOutQuickly() {
        this.replies.put("/internal/events/e3/candidates", new Reply(0, ""));
        long start = System.nanoTime();
        assertThatThrownBy(() -> this.queue.candidates(EventId.of("e3"), 1))
                .isInstanceOf(QueueUnavailableException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aDeadQueueIsUnavailable() {
        int port = this.server.getAddress().getPort();
        this.server.stop(0);
        QueueDirectory dead = RestClientQueueDirectory.of(
                RestClient.builder(),
                "http://127.0.0.1:" + port,
                TOKEN,
                Duration.ofMillis(300),
                Duration.ofMillis(300));
        assertThatThrownBy(() -> dead.counts(EventId.of("e4"))).isInstanceOf(QueueUnavailableException.class);
    }
}
