package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.queue.EstimateCaveat;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.queue.join.VisitorStatusReply;
import dev.waitroom.tokens.VisitorId;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

/**
 * Wait estimates from the pushed offer pace (docs/design/estimates.md): the status answers with the contract's one rule on the
 * stored pace, the snapshot hands the same pace to the edge, a malformed pace is refused with a problem and changes
 * nothing, and an offer is scored against the range its entry was first shown.
 */
@QueueServiceTest
class EstimateTests {

    private static final Pace STEADY = new Pace(2, 2.5, 2.1, 60, 1, false);

    private static final Pace SLOWED = new Pace(4, 3, 1.5, 60, 1, false);

    private final QueueClient client;

    @LocalManagementPort
    int managementPort;

    @Autowired
    RedissonClient redisson;

    EstimateTests(QueueClient client) {
        this.client = client;
    }

    private static String pace(Pace p) {
        return "\"pace\":" + QueueClient.JSON.writeValueAsString(p);
    }

    private String openWith(String prefix, Pace pace, int ahead) {
        String event = QueueClient.newEventId(prefix);
        client.putEvent(event, "OPEN", pace == null ? null : pace(pace));
        for (int i = 0; i < ahead; i++) {
            client.join(event, VisitorId.random().value());
        }
        return event;
    }

    private static QueueStatus.EstimatedWait estimate(JsonNode body) {
        return QueueClient.JSON.treeToValue(body.get("estimatedWaitSeconds"), QueueStatus.EstimatedWait.class);
    }

    @Test
    void theStatusEstimatesWithTheContractsRuleOnThePushedPace() {
        String event = openWith("estimate-steady", STEADY, 152);
        String visitor = VisitorId.random().value();
        Reply joined = client.join(event, visitor);
        QueueStatus.Position ahead = QueueStatus.Position.around(152);
        QueueStatus.EstimatedWait expected = QueueStatus.EstimatedWait.of(ahead, 10, STEADY);
        assertThat(estimate(joined.json())).isEqualTo(expected);
        assertThat(expected.caveat()).isNull();
        JsonNode status = client.status(event, visitor).json();
        assertThat(estimate(status)).isEqualTo(expected);
        assertThat(status.get("estimatedWaitSeconds").has("caveat")).isTrue();

        client.putEvent(event, "OPEN", pace(SLOWED));
        QueueStatus.EstimatedWait slowed =
                estimate(client.status(event, visitor).json());
        assertThat(slowed).isEqualTo(QueueStatus.EstimatedWait.of(ahead, 10, SLOWED));
        assertThat(slowed.caveat()).isEqualTo(EstimateCaveat.SLOWED);
    }

    @Test
    void withoutAPaceTheEstimateSaysItIsMeasuring() {
        String event = openWith("estimate-measuring", null, 40);
        JsonNode body = client.join(event, VisitorId.random().value()).json();
        assertThat(estimate(body)).isEqualTo(QueueStatus.EstimatedWait.of(QueueStatus.Position.around(40), 10, null));
        assertThat(body.get("estimatedWaitSeconds").get("caveat").asString()).isEqualTo("MEASURING");
    }

    /**
     * Issue #26: at the very front, while measuring, the range ran from 0 s to days. A range whose upper end passes 4
     * times its lower end plus 2 minutes is not shown: the status says "not known yet" (no estimate), the place stays.
     */
    @Test
    void aRangeTooWideToMeanAnythingIsNotKnownYet() {
        Pace measuringDownToTheFloor = new Pace(0, 0, 0, 2, 0.02, false);
        String event = openWith("estimate-unknown", measuringDownToTheFloor, 40);
        String visitor = VisitorId.random().value();
        JsonNode joined = client.join(event, visitor).json();
        assertThat(joined.path("state").asString()).isEqualTo("WAITING");
        assertThat(joined.path("position").path("aheadMin").asLong()).isEqualTo(40);
        assertThat(joined.path("estimatedWaitSeconds").isNull()
                        || joined.path("estimatedWaitSeconds").isMissingNode())
                .as("no estimate: %s", joined)
                .isTrue();
        assertThat(QueueStatus.EstimatedWait.of(QueueStatus.Position.around(40), 10, measuringDownToTheFloor))
                .isNull();

        client.putEvent(event, "OPEN", pace(STEADY));
        QueueStatus.EstimatedWait steady =
                estimate(client.status(event, visitor).json());
        assertThat(steady).isEqualTo(QueueStatus.EstimatedWait.of(QueueStatus.Position.around(40), 10, STEADY));
        assertThat(steady).isNotNull();
    }

    @Test
    void theSnapshotCarriesThePaceToTheEdge() {
        String event = openWith("estimate-snapshot", STEADY, 3);
        QueueSnapshot snapshot = QueueClient.JSON.readValue(
                client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                        .body(),
                QueueSnapshot.class);
        assertThat(snapshot.pace()).isEqualTo(Pace.decode(STEADY.encode()));
        client.putEvent(event, "OPEN", null);
        QueueSnapshot none = QueueClient.JSON.readValue(
                client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                        .body(),
                QueueSnapshot.class);
        assertThat(none.pace()).as("a push without a pace clears it").isNull();
    }

    @Test
    void aMalformedPaceIsRefusedWithAProblemAndChangesNothing() {
        String event = openWith("estimate-bad-pace", STEADY, 1);
        for (String bad : new String[] {
            "{'perSecond':-1,'variance':0,'recentPerSecond':0,'buckets':6,'floorPerSecond':0,'resumed':false}",
            "{'perSecond':1,'variance':1e400,'recentPerSecond':0,'buckets':6,'floorPerSecond':0,'resumed':false}",
            "{'perSecond':1,'variance':1,'recentPerSecond':1,'buckets':99,'floorPerSecond':0,'resumed':false}",
            "{'perSecond':'fast'}",
            "[1,2,3]"
        }) {
            Reply refused = client.putEvent(event, "OPEN", "\"pace\":" + bad.replace('\'', '"'));
            assertThat(refused.status()).as(bad).isEqualTo(400);
            assertThat(refused.header("Content-Type")).contains("application/problem+json");
            assertThat(refused.json().get("type").asString()).as(bad).endsWith("malformed-request");
        }
        QueueSnapshot kept = QueueClient.JSON.readValue(
                client.internal("GET", "/internal/events/" + event + "/snapshot", null)
                        .body(),
                QueueSnapshot.class);
        assertThat(kept.pace()).isEqualTo(Pace.decode(STEADY.encode()));
    }

    @Test
    void anOfferIsScoredAgainstTheRangeFirstShown() {
        String event = openWith("estimate-score", STEADY, 0);
        String first = client.join(event, VisitorId.random().value()).receipt();
        String second = client.join(event, VisitorId.random().value()).receipt();
        // the first is offered at once: inside its range (0 ahead: 0 s up to a few seconds)
        client.offer(event, first, "g-score-1");
        String scrape = scrape();
        assertThat(scrape)
                .containsPattern("waitroom_queue_estimates_total\\{[^}]*event=\"" + event
                        + "\"[^}]*outcome=\"inside\"[^}]*\\} 1\\.0");
        // scored once: a re-sent offer of the same grant counts nothing more
        client.offer(event, first, "g-score-1");
        client.offer(event, second, "g-score-2");
        assertThat(scrape())
                .containsPattern("waitroom_queue_estimates_total\\{[^}]*event=\"" + event
                        + "\"[^}]*outcome=\"inside\"[^}]*\\} 2\\.0");
    }

    @Test
    void everyOutcomeIsASeriesFromAnEventsFirstOfferEvenWhenNoneWasScored() {
        // no pace and no rate: the entry is never given an estimate, so its offer has nothing to score
        String event = openWith("estimate-none", null, 0);
        String only = client.join(event, VisitorId.random().value()).receipt();
        client.offer(event, only, "g-none-1");
        String scrape = scrape();
        for (String outcome : new String[] {"inside", "early", "late"}) {
            assertThat(scrape)
                    .as(outcome + " reads 0, not no data")
                    .containsPattern("waitroom_queue_estimates_total\\{[^}]*event=\"" + event + "\"[^}]*outcome=\""
                            + outcome + "\"[^}]*\\} 0\\.0");
        }
    }

    /**
     * Issue #29: the estimate's inputs cost about 60 bytes a visitor, half a waiting entry. Past an event's first
     * {@code ESTIMATE_RECORD_ALL} entries only one in {@code ESTIMATE_RECORD_EVERY} keeps them; the others are
     * answered the same estimate and simply not scored.
     */
    @Test
    void pastTheFirstEntriesOnlyASampleKeepsItsEstimatesInputs() {
        String event = openWith("estimate-sampled", STEADY, 0);
        long start = VisitorStatusReply.ESTIMATE_RECORD_ALL - 2;
        redisson.getBucket("wr:{" + event + "}:seq", StringCodec.INSTANCE).set(Long.toString(start));
        long every = VisitorStatusReply.ESTIMATE_RECORD_EVERY;
        int joins = (int) (2 * every + 2);
        for (int i = 0; i < joins; i++) {
            JsonNode body = client.join(event, VisitorId.random().value()).json();
            assertThat(body.path("estimatedWaitSeconds").isObject())
                    .as("every entry is answered an estimate: %s", body)
                    .isTrue();
        }
        java.util.List<Long> recorded = new java.util.ArrayList<>();
        for (long seq = start + 1; seq <= start + joins; seq++) {
            String bucket = "wr:{" + event + "}:s:" + seq / 128;
            if (redisson.<String, String>getMap(bucket, StringCodec.INSTANCE).containsKey("j" + seq % 128)) {
                recorded.add(seq);
            }
        }
        java.util.List<Long> expected = new java.util.ArrayList<>();
        for (long seq = start + 1; seq <= start + joins; seq++) {
            if (seq <= VisitorStatusReply.ESTIMATE_RECORD_ALL || seq % every == 0) {
                expected.add(seq);
            }
        }
        assertThat(recorded).isEqualTo(expected).hasSize(4);
    }

    private String scrape() {
        return new QueueClient(managementPort)
                .send("GET", "/actuator/prometheus", null, Map.of())
                .body();
    }
}
