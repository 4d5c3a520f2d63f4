package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

@QueueServiceTest
class StatusTests {

    @Autowired
    RedissonClient redisson;

    private final QueueClient client;

    @LocalManagementPort
    int managementPort;

    StatusTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void statusShowsABandAnEstimateRangeAndAFreshTicketButNothingAboutOthers() {
        String event = QueueClient.newEventId("status");
        client.internal(
                "PUT",
                "/internal/events/" + event,
                "{\"phase\":\"OPEN\",\"mode\":\"QUEUEING\",\"saleGeneration\":1,"
                        + "\"admissionRatePerSecond\":20,\"announcement\":\"Sale is on\"}");
        for (int i = 0; i < 150; i++) {
            client.join(event, VisitorId.random().value());
        }
        String visitor = VisitorId.random().value();
        Instant before = Instant.now().minusSeconds(1);
        Reply joined = client.join(event, visitor);
        assertThat(joined.status()).isEqualTo(201);
        assertThat(joined.header("Cache-Control")).contains("no-store");

        Reply status = client.status(event, visitor);
        JsonNode body = status.json();
        assertThat(body.propertyNames())
                .containsExactlyInAnyOrder(
                        "state",
                        "phase",
                        "mode",
                        "position",
                        "estimatedWaitSeconds",
                        "offer",
                        "pollAfterSeconds",
                        "announcement",
                        "receipt",
                        "admissionHold",
                        "lane");
        assertThat(body.get("state").asString()).isEqualTo("WAITING");
        assertThat(body.get("phase").asString()).isEqualTo("OPEN");
        assertThat(body.get("mode").asString()).isEqualTo("QUEUEING");
        assertThat(body.get("announcement").asString()).isEqualTo("Sale is on");
        assertThat(body.get("position").get("aheadMin").asLong()).isEqualTo(150);
        assertThat(body.get("position").get("aheadMax").asLong()).isEqualTo(159);
        // no pace measured yet: the contract's rule from the pushed rate, wide and said to be measuring
        dev.waitroom.contract.queue.QueueStatus.EstimatedWait measuring =
                dev.waitroom.contract.queue.QueueStatus.EstimatedWait.of(
                        dev.waitroom.contract.queue.QueueStatus.Position.around(150), 20, null);
        assertThat(body.get("estimatedWaitSeconds").get("min").asLong()).isEqualTo(measuring.min());
        assertThat(body.get("estimatedWaitSeconds").get("max").asLong()).isEqualTo(measuring.max());
        assertThat(body.get("estimatedWaitSeconds").get("caveat").asString()).isEqualTo("MEASURING");
        assertThat(body.get("offer").isNull()).isTrue();
        assertThat(body.get("pollAfterSeconds").asInt()).isBetween(2, 30);
        assertThat(body.get("receipt").asString()).isEqualTo(joined.receipt());
        assertThat(status.header("Cache-Control")).contains("no-store");

        QueueTicket ticket = status.ticket();
        assertThat(ticket.eventId()).isEqualTo(event);
        assertThat(ticket.entryId()).isEqualTo(joined.receipt());
        assertThat(ticket.orderKey()).isEqualTo(151);
        assertThat(ticket.issuedAt()).isAfter(before);
    }

    @Test
    void whilePausedThereIsNoEstimateAndVisitorsPollLessOften() {
        String event = client.newEvent("paused", "OPEN");
        String visitor = VisitorId.random().value();
        client.join(event, visitor);
        client.internal(
                "PUT",
                "/internal/events/" + event,
                "{\"phase\":\"OPEN\",\"mode\":\"PAUSED\",\"saleGeneration\":1,"
                        + "\"admissionRatePerSecond\":10,\"announcement\":\"Paused: checkout is slow\"}");
        JsonNode body = client.status(event, visitor).json();
        assertThat(body.get("mode").asString()).isEqualTo("PAUSED");
        assertThat(body.get("estimatedWaitSeconds").isNull()).isTrue();
        assertThat(body.get("position").get("aheadMin").asLong())
                .as("the place is kept")
                .isZero();
        assertThat(body.get("pollAfterSeconds").asInt()).isGreaterThan(30);
    }

    @Test
    void pausedOrSoldOutNoProgressIsShownAndASoldOutOfferIsNotShown() {
        String event = client.newEvent("no-progress", "OPEN");
        String offered = VisitorId.random().value();
        String waiting = VisitorId.random().value();
        String entry = client.join(event, offered).receipt();
        client.join(event, waiting);
        client.offer(event, entry, "g-no-progress");
        JsonNode running = client.status(event, waiting).json();
        assertThat(running.get("estimatedWaitSeconds").isNull())
                .as("while admissions run there is an estimate")
                .isFalse();

        pushMode(event, "PAUSED");
        JsonNode paused = client.status(event, waiting).json();
        assertThat(paused.get("mode").asString()).isEqualTo("PAUSED");
        assertThat(paused.get("estimatedWaitSeconds").isNull()).isTrue();
        assertThat(paused.get("position").get("aheadMin").asLong())
                .as("the place kept")
                .isZero();
        JsonNode heldOffer = client.status(event, offered).json();
        assertThat(heldOffer.get("state").asString()).isEqualTo("OFFERED");
        assertThat(heldOffer.get("offer").get("expiresAt").asString())
                .as("a paused offer is held, and shown")
                .isNotBlank();
        assertThat(heldOffer.get("pollAfterSeconds").asInt())
                .as("it cannot be claimed while paused: no 2 s polling")
                .isEqualTo(10);

        pushMode(event, "SOLD_OUT");
        JsonNode soldOut = client.status(event, waiting).json();
        assertThat(soldOut.get("mode").asString()).isEqualTo("SOLD_OUT");
        assertThat(soldOut.get("estimatedWaitSeconds").isNull()).isTrue();
        assertThat(soldOut.get("pollAfterSeconds").asInt()).isEqualTo(60);
        JsonNode deadOffer = client.status(event, offered).json();
        assertThat(deadOffer.get("mode").asString()).isEqualTo("SOLD_OUT");
        assertThat(deadOffer.get("offer").isNull())
                .as("sold out, an offer made before cannot be claimed")
                .isTrue();
        assertThat(deadOffer.get("pollAfterSeconds").asInt()).isEqualTo(60);

        pushMode(event, "QUEUEING");
        assertThat(client.status(event, waiting)
                        .json()
                        .get("estimatedWaitSeconds")
                        .isNull())
                .as("admissions run again: the estimate is back")
                .isFalse();
        assertThat(client.status(event, offered).json().get("offer").isNull()).isFalse();
    }

    private void pushMode(String event, String mode) {
        Reply put = client.internal(
                "PUT",
                "/internal/events/" + event,
                "{\"phase\":\"OPEN\",\"mode\":\"" + mode + "\",\"saleGeneration\":1,\"admissionRatePerSecond\":10}");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
    }

    @Test
    void beforeOpeningThereIsNoPositionAndTheTicketCarriesNoOrderKey() {
        String event = client.newEvent("scheduled", "SCHEDULED");
        String visitor = VisitorId.random().value();
        Reply r = client.join(event, visitor);
        assertThat(r.json().get("phase").asString()).isEqualTo("SCHEDULED");
        assertThat(r.json().get("position").isNull()).isTrue();
        assertThat(r.json().get("estimatedWaitSeconds").isNull()).isTrue();
        assertThat(r.ticket().orderKey()).isZero();
    }

    @Test
    void livenessIsWrittenApartFromOrderAtMostOncePerInterval() {
        String event = client.newEvent("liveness", "OPEN");
        String visitor = VisitorId.random().value();
        Reply joined = client.join(event, visitor);
        long seq = Long.parseLong(joined.receipt(), 36);
        String seenKey = "wr:{" + event + "}:s:" + (seq / 128);
        String entryKey = "wr:{" + event + "}:e:" + (seq / 128);
        var seen = redisson.<String, String>getMap(seenKey, StringCodec.INSTANCE);
        var entries = redisson.<String, String>getMap(entryKey, StringCodec.INSTANCE);
        String record = entries.get(Long.toString(seq % 128));

        // pretend the last sighting was 31 s ago: the next poll refreshes it, the ones after it do not
        long stale = Instant.now().minus(Duration.ofSeconds(31)).getEpochSecond();
        seen.put(Long.toString(seq % 128), Long.toString(stale));
        client.status(event, visitor);
        String refreshed = seen.get(Long.toString(seq % 128));
        assertThat(Long.parseLong(refreshed)).isGreaterThan(stale);
        seen.put(Long.toString(seq % 128), Long.toString(Long.parseLong(refreshed) - 5));
        for (int i = 0; i < 20; i++) {
            client.status(event, visitor);
        }
        assertThat(seen.get(Long.toString(seq % 128))).isEqualTo(Long.toString(Long.parseLong(refreshed) - 5));
        assertThat(entries.get(Long.toString(seq % 128))).as("order untouched").isEqualTo(record);
    }

    @Test
    void publicEventStatusIsCacheableAndPublishesTheCommitment() {
        String event = QueueClient.newEventId("public");
        String commitment = "ab".repeat(32);
        client.putEvent(event, "SCHEDULED", "\"commitment\":\"" + commitment + "\"");
        for (int i = 0; i < 3; i++) {
            client.join(event, VisitorId.random().value());
        }
        Reply r = client.internal("GET", "/events/" + event + "/status", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Cache-Control")).contains("max-age=1").contains("public");
        JsonNode body = r.json();
        assertThat(body.get("phase").asString()).isEqualTo("SCHEDULED");
        assertThat(body.get("commitment").asString()).isEqualTo(commitment);
        assertThat(body.get("seed").isNull()).isTrue();
        assertThat(body.get("queueLength").get("min").asLong()).isEqualTo(3);
        assertThat(body.get("admissionRatePerSecond").asDouble()).isEqualTo(10.0);
        assertThat(r.body()).doesNotContain("visitor");
    }

    @Test
    void theEventPushAnswersTheStoredStateAndToleratesFieldsItDoesNotKnow() {
        String event = QueueClient.newEventId("push");
        Reply r = client.internal(
                "PUT",
                "/internal/events/" + event,
                "{\"phase\":\"SCHEDULED\",\"mode\":\"QUEUEING\","
                        + "\"saleGeneration\":3,\"identityScope\":\"ACCOUNT\",\"expiredOfferPolicy\":\"DROP\","
                        + "\"admissionRatePerSecond\":8.5,\"offerTtlSeconds\":90,\"opensAt\":\"2030-05-01T10:00:00Z\","
                        + "\"afterPurchase\":\"RELEASE\",\"somethingNew\":{\"x\":1}}");
        assertThat(r.status()).isEqualTo(200);
        JsonNode body = r.json();
        assertThat(body.get("phase").asString()).isEqualTo("SCHEDULED");
        assertThat(body.get("saleGeneration").asLong()).isEqualTo(3);
        assertThat(body.get("identityScope").asString()).isEqualTo("ACCOUNT");
        assertThat(body.get("expiredOfferPolicy").asString()).isEqualTo("DROP");
        assertThat(body.get("admissionRatePerSecond").asDouble()).isEqualTo(8.5);
        assertThat(body.get("offerTtlSeconds").asLong()).isEqualTo(90);
        assertThat(Instant.parse(body.get("opensAt").asString())).isEqualTo(Instant.parse("2030-05-01T10:00:00Z"));
        assertThat(body.get("presaleCount").isNull()).isTrue();
    }

    @Test
    void scriptsAreLoadedAgainWhenRedisForgetsThem() throws Exception {
        String event = client.newEvent("noscript", "OPEN");
        String visitor = VisitorId.random().value();
        Reply joined = client.join(event, visitor);
        try (RedisProbe redis = new RedisProbe(
                dev.waitroom.testsupport.RealStores.redisHost(), dev.waitroom.testsupport.RealStores.redisPort())) {
            assertThat(redis.call("SCRIPT", "FLUSH")).isEqualTo("OK");
        }
        Reply status = client.status(event, visitor);
        assertThat(status.status()).isEqualTo(200);
        assertThat(status.receipt()).isEqualTo(joined.receipt());
    }

    @Test
    void theInternalApiIsDescribedByOpenApi() {
        Reply r = client.send("GET", "/v3/api-docs", null, java.util.Map.of());
        assertThat(r.status()).isEqualTo(200);
        JsonNode paths = r.json().get("paths");
        assertThat(paths.propertyNames())
                .contains(
                        "/internal/events/{eventId}",
                        "/internal/events/{eventId}/draw",
                        "/internal/events/{eventId}/candidates",
                        "/internal/events/{eventId}/offers",
                        "/internal/events/{eventId}/entries/{entryId}/transition",
                        "/internal/events/{eventId}/counts",
                        "/internal/events/{eventId}/snapshot",
                        "/events/{eventId}/queue",
                        "/events/{eventId}/status");
    }

    @Test
    void prometheusExposesQueueMetrics() {
        String event = client.newEvent("metrics", "OPEN");
        String visitor = VisitorId.random().value();
        client.join(event, visitor);
        client.status(event, visitor);
        client.counts(event);
        String scrape = new QueueClient(managementPort)
                .send("GET", "/actuator/prometheus", null, java.util.Map.of())
                .body();
        assertThat(scrape)
                .contains("waitroom_queue_joins_total")
                .contains("waitroom_queue_waiting")
                .contains("waitroom_queue_status_requests_total")
                .containsPattern("waitroom_queue_oldest_wait_seconds\\{[^}]*event=\"" + event + "\"")
                .containsPattern("waitroom_queue_waiting_unseen\\{[^}]*event=\"" + event + "\"");
    }
}
