package dev.waitroom.queue.lane;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.queue.QueueClient;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.queue.QueueServiceTest;
import dev.waitroom.tokens.VisitorId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Lanes in the queue: placement by original join order, each lane's front, the status per lane. */
@QueueServiceTest
class LaneTests {

    private final QueueClient client;

    LaneTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void aLaneOrdersItsMembersByTheirOriginalJoinOrderAndTheGeneralLaneKeepsTheRest() {
        String event = client.newEvent("lanes-order", "OPEN");
        List<String> visitors = joinAll(event, 10);

        // the seventh joiner redeems first, the third later: the third still stands ahead of the seventh
        assertThat(move(event, visitors.get(6), "presale").json().get("moved").asBoolean())
                .isTrue();
        assertThat(move(event, visitors.get(2), "presale").status()).isEqualTo(200);

        assertThat(receipts(laneCandidates(event, "presale", 10))).containsExactly("3", "7");
        assertThat(receipts(client.candidates(event, 20))).containsExactly("1", "2", "4", "5", "6", "8", "9", "a");
        assertThat(laneCandidates(event, "members", 10)).isEmpty();

        Reply seventh = client.status(event, visitors.get(6));
        assertThat(seventh.json().get("lane").asString()).isEqualTo("presale");
        assertThat(seventh.json().get("position").get("aheadMin").asLong())
                .as("counted within the lane")
                .isEqualTo(1);
        assertThat(seventh.header(Headers.TICKET))
                .as("no queue ticket: the edge snapshot summarises the general lane only")
                .isNull();
        Reply eighth = client.status(event, visitors.get(7));
        assertThat(eighth.json().get("lane").asString()).isEqualTo("general");
        assertThat(eighth.json().get("position").get("aheadMin").asLong())
                .as("lane members are no longer ahead in the general lane")
                .isEqualTo(5);
        assertThat(eighth.ticket().orderKey()).isEqualTo(8);
        assertThat(client.counts(event).get("waiting").asLong())
                .as("the event's waiting count is every lane's")
                .isEqualTo(10);
    }

    @Test
    void aRepeatedMoveChangesNothingAndAMoveBackToGeneralRestoresThePlace() {
        String event = client.newEvent("lanes-repeat", "OPEN");
        List<String> visitors = joinAll(event, 3);
        move(event, visitors.get(1), "members");
        JsonNode again = move(event, visitors.get(1), "members").json();
        assertThat(again.get("moved").asBoolean()).isFalse();
        assertThat(again.get("lane").asString()).isEqualTo("members");
        assertThat(receipts(laneCandidates(event, "members", 10))).containsExactly("2");

        move(event, visitors.get(1), "general");
        assertThat(laneCandidates(event, "members", 10)).isEmpty();
        assertThat(receipts(client.candidates(event, 10))).containsExactly("1", "2", "3");
    }

    @Test
    void anOfferTakesALaneMemberOutOfItsLaneAndARequeueOrAWithdrawalPutsItBack() {
        String event = client.newEvent("lanes-offer", "OPEN");
        List<String> visitors = joinAll(event, 4);
        move(event, visitors.get(0), "presale");
        move(event, visitors.get(2), "presale");

        assertThat(client.offer(event, "1", "g1").get("state").asString()).isEqualTo("OFFERED");
        assertThat(receipts(laneCandidates(event, "presale", 10))).containsExactly("3");
        assertThat(client.status(event, visitors.get(2))
                        .json()
                        .get("position")
                        .get("aheadMin")
                        .asLong())
                .isZero();

        // back of the queue once: a new order key, still in the lane, behind the lane's other member
        assertThat(client.transition(event, "1", "OFFER_EXPIRED", "g1")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("WAITING");
        assertThat(receipts(laneCandidates(event, "presale", 10))).containsExactly("3", "1");
        assertThat(receipts(client.candidates(event, 10))).containsExactly("2", "4");

        client.offer(event, "3", "g3");
        assertThat(client.transition(event, "3", "OFFER_WITHDRAWN", "g3")
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("WAITING");
        assertThat(receipts(laneCandidates(event, "presale", 10)))
                .as("withdrawn, it has its place in the lane back")
                .containsExactly("3", "1");
    }

    @Test
    void leavingEmptiesTheLaneSlot() {
        String event = client.newEvent("lanes-leave", "OPEN");
        List<String> visitors = joinAll(event, 2);
        move(event, visitors.get(1), "access");
        assertThat(client.leave(event, visitors.get(1)).status()).isLessThan(300);
        assertThat(laneCandidates(event, "access", 10)).isEmpty();
        assertThat(client.counts(event).get("waiting").asLong()).isEqualTo(1);
    }

    @Test
    void aPresaleEntryMovedBeforeTheDrawTakesItsDrawnPlaceInTheLane() {
        String event = client.newEvent("lanes-presale", "SCHEDULED");
        List<String> visitors = joinAll(event, 20);
        move(event, visitors.get(4), "presale");
        move(event, visitors.get(9), "presale"); // receipt "a": entry ids are hex
        assertThat(client.status(event, visitors.get(4)).json().get("lane").asString())
                .isEqualTo("presale");
        client.putEvent(event, "OPEN", null);
        assertThat(laneCandidates(event, "presale", 10))
                .as("nothing before the draw")
                .isEmpty();
        assertThat(client.draw(event, "ab".repeat(32)).status()).isEqualTo(200);

        List<JsonNode> lane = laneCandidates(event, "presale", 10);
        assertThat(receipts(lane)).containsExactlyInAnyOrder("5", "a");
        assertThat(lane.get(0).get("orderKey").asLong())
                .as("in drawn order")
                .isLessThan(lane.get(1).get("orderKey").asLong());
        assertThat(client.candidates(event, 30)).hasSize(18);
    }

    @Test
    void badMovesAreProblemsAndChangeNothing() {
        String event = client.newEvent("lanes-bad", "OPEN");
        List<String> visitors = joinAll(event, 2);
        move(event, VisitorId.random().value(), "presale").assertProblem(404, "not-in-queue");
        move(event, visitors.get(0), "Presale!").assertProblem(400, "invalid-lanes");
        move(event, visitors.get(0), "x".repeat(33)).assertProblem(400, "invalid-lanes");
        client.offer(event, "2", "g2");
        move(event, visitors.get(1), "presale").assertProblem(409, "state-conflict");
        client.internal("POST", "/internal/events/" + event + "/lane", "{}").assertProblem(400, "malformed-request");
        assertThat(receipts(client.candidates(event, 10))).containsExactly("1");
        assertThat(laneCandidates(event, "presale", 10)).isEmpty();
        client.internal("GET", "/internal/events/" + event + "/candidates?limit=5&lane=NO", null)
                .assertProblem(400, "invalid-lanes");
    }

    private Reply move(String event, String visitor, String lane) {
        return client.internal(
                "POST",
                "/internal/events/" + event + "/lane",
                "{\"visitor\":\"" + visitor + "\",\"lane\":\"" + lane + "\"}");
    }

    private List<JsonNode> laneCandidates(String event, String lane, int limit) {
        Reply r = client.internal(
                "GET", "/internal/events/" + event + "/candidates?limit=" + limit + "&lane=" + lane, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        r.json().get("entries").forEach(out::add);
        return out;
    }

    private static List<String> receipts(List<JsonNode> candidates) {
        return candidates.stream().map(c -> c.get("entryId").asString()).toList();
    }

    private List<String> joinAll(String event, int n) {
        List<String> visitors = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String v = VisitorId.random().value();
            assertThat(client.join(event, v).status()).isEqualTo(201);
            visitors.add(v);
        }
        return visitors;
    }
}
