package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.testsupport.AllAtOnce;
import dev.waitroom.tokens.VisitorId;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Rejoin (issue 17, item 3; docs/design/sale-rules/rejoin-and-published-policy.md), against the real service and Redis: a
 * spent entry (EXPIRED, or COMPLETED unless the event keeps the place after a purchase) makes a join create a new entry
 * at the back with a new receipt, exactly once however many calls race; the old record stays as history.
 */
@QueueServiceTest
class RejoinTests {

    private final QueueClient client;

    RejoinTests(QueueClient client) {
        this.client = client;
    }

    private String event(String prefix, String policyJson) {
        String event = QueueClient.newEventId(prefix);
        Reply put = client.putEvent(event, "OPEN", policyJson);
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        return event;
    }

    /** Offers the entry and lets the offer run out (EXPIRED under DROP); answers the grant. */
    private String expire(String event, String entry) {
        String grant = "g-" + entry + "-" + VisitorId.random().value();
        assertThat(client.offer(event, entry, grant).get("state").asString()).isEqualTo("OFFERED");
        assertThat(client.transition(event, entry, "OFFER_EXPIRED", grant)
                        .json()
                        .get("state")
                        .asString())
                .isIn("EXPIRED", "WAITING");
        return grant;
    }

    private void push(String event, String phase, String mode) {
        Reply put = client.internal(
                "PUT",
                "/internal/events/" + event,
                "{\"phase\":\"" + phase + "\",\"mode\":\"" + mode + "\",\"saleGeneration\":1,"
                        + "\"expiredOfferPolicy\":\"DROP\"}");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
    }

    /** Offers the entry, claims and buys: COMPLETED. */
    private void complete(String event, String entry) {
        String grant = "g-" + entry;
        client.offer(event, entry, grant);
        assertThat(client.transition(event, entry, "ACTIVE", grant).status()).isEqualTo(200);
        assertThat(client.transition(event, entry, "COMPLETED", grant)
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("COMPLETED");
    }

    @Test
    void afterAnOfferExpiredUnderDropAJoinMakesANewEntryAtTheBack() {
        String event = event("rejoin-drop", "\"expiredOfferPolicy\":\"DROP\"");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        for (int i = 0; i < 3; i++) {
            client.join(event, VisitorId.random().value());
        }
        String grant = expire(event, first.receipt());
        assertThat(client.status(event, visitor).json().get("state").asString()).isEqualTo("EXPIRED");

        Reply again = client.join(event, visitor);
        assertThat(again.status()).as(again.body()).isEqualTo(201);
        assertThat(again.receipt()).isNotEqualTo(first.receipt());
        assertThat(again.json().get("state").asString()).isEqualTo("WAITING");
        assertThat(again.ticket().orderKey())
                .as("behind everyone who joined before")
                .isEqualTo(5);
        assertThat(again.json().get("position").get("aheadMin").asLong()).isEqualTo(3);
        assertThat(client.status(event, visitor).receipt())
                .as("the identity now points at the new entry")
                .isEqualTo(again.receipt());

        JsonNode counts = client.counts(event);
        assertThat(counts.get("expired").asLong())
                .as("the old entry is kept, counted as before")
                .isEqualTo(1);
        assertThat(counts.get("waiting").asLong()).isEqualTo(4);
        assertThat(counts.get("joins").asLong()).isEqualTo(5);
        assertThat(client.candidates(event, 10).get(3).get("entryId").asString())
                .isEqualTo(again.receipt());
        assertThat(client.transition(event, first.receipt(), "OFFER_EXPIRED", grant)
                        .json()
                        .get("state")
                        .asString())
                .as("the old record is history, untouched by the rejoin")
                .isEqualTo("EXPIRED");

        Reply repeat = client.join(event, visitor);
        assertThat(repeat.status())
                .as("the new entry is waiting: a repeat join answers it")
                .isEqualTo(200);
        assertThat(repeat.receipt()).isEqualTo(again.receipt());
    }

    @Test
    void afterASecondMissedOfferAJoinMakesANewEntry() {
        String event = event("rejoin-requeue", "\"expiredOfferPolicy\":\"REQUEUE_ONCE\"");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        expire(event, first.receipt());
        Reply requeued = client.join(event, visitor);
        assertThat(requeued.status())
                .as("back of the queue once: the same entry")
                .isEqualTo(200);
        assertThat(requeued.receipt()).isEqualTo(first.receipt());
        assertThat(requeued.json().get("state").asString()).isEqualTo("WAITING");

        expire(event, first.receipt());
        assertThat(client.status(event, visitor).json().get("state").asString()).isEqualTo("EXPIRED");
        Reply again = client.join(event, visitor);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.receipt()).isNotEqualTo(first.receipt());
    }

    @Test
    void afterAPurchaseUnderReleaseAJoinMakesANewEntry() {
        String event = event("rejoin-release", "\"afterPurchase\":\"RELEASE\"");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        client.join(event, VisitorId.random().value());
        complete(event, first.receipt());

        Reply again = client.join(event, visitor);
        assertThat(again.status()).as(again.body()).isEqualTo(201);
        assertThat(again.receipt()).isNotEqualTo(first.receipt());
        assertThat(again.ticket().orderKey()).isEqualTo(3);
        assertThat(again.json().get("position").get("aheadMin").asLong()).isEqualTo(1);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("completed").asLong()).isEqualTo(1);
        assertThat(counts.get("waiting").asLong()).isEqualTo(2);
        assertThat(counts.get("joins").asLong()).isEqualTo(3);
    }

    @Test
    void anEventPushedWithoutAnAfterPurchaseRuleReleasesTheDefault() {
        String event = event("rejoin-default", null);
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        complete(event, first.receipt());
        assertThat(client.join(event, visitor).status()).isEqualTo(201);
    }

    @Test
    void afterAPurchaseUnderKeepAJoinAnswersTheCompletedEntry() {
        String event = event("rejoin-keep", "\"afterPurchase\":\"KEEP\"");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        complete(event, first.receipt());

        for (int i = 0; i < 3; i++) {
            Reply again = client.join(event, visitor);
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.receipt()).isEqualTo(first.receipt());
            assertThat(again.json().get("state").asString()).isEqualTo("COMPLETED");
            assertThat(again.header("X-Waitroom-Ticket"))
                    .as("no ticket for a spent entry")
                    .isNull();
        }
        JsonNode counts = client.counts(event);
        assertThat(counts.get("joins").asLong()).isEqualTo(1);
        assertThat(counts.get("waiting").asLong()).isZero();
    }

    @Test
    void offeredAndActiveEntriesAreAnsweredAndAnExpiredSessionIsReplaced() {
        String event = event("rejoin-live", "\"expiredOfferPolicy\":\"DROP\"");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        client.offer(event, first.receipt(), "g-live");
        assertThat(client.join(event, visitor).receipt()).isEqualTo(first.receipt());
        client.transition(event, first.receipt(), "ACTIVE", "g-live");
        Reply active = client.join(event, visitor);
        assertThat(active.status()).isEqualTo(200);
        assertThat(active.receipt()).isEqualTo(first.receipt());
        assertThat(active.json().get("state").asString()).isEqualTo("ACTIVE");

        // the shopping session ran out without a purchase: the place is spent
        client.transition(event, first.receipt(), "EXPIRED", "g-live");
        Reply again = client.join(event, visitor);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.receipt()).isNotEqualTo(first.receipt());
    }

    @Test
    void concurrentRejoinsOfOneVisitorMakeExactlyOneNewEntry() throws Exception {
        String event = event("rejoin-race", "\"expiredOfferPolicy\":\"DROP\"");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        for (int i = 0; i < 5; i++) {
            client.join(event, VisitorId.random().value());
        }
        expire(event, first.receipt());

        List<Reply> replies = AllAtOnce.call(32, () -> client.join(event, visitor));

        assertThat(replies).allSatisfy(r -> assertThat(r.status()).as(r.body()).isIn(200, 201));
        assertThat(replies.stream().filter(r -> r.status() == 201)).hasSize(1);
        assertThat(replies.stream().map(Reply::receipt).distinct())
                .as("every racing call answers the one new entry")
                .hasSize(1)
                .doesNotContain(first.receipt());
        assertThat(replies.stream().map(r -> r.ticket().orderKey()).distinct()).containsExactly(7L);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("joins").asLong()).isEqualTo(7);
        assertThat(counts.get("waiting").asLong()).isEqualTo(6);
        assertThat(counts.get("expired").asLong()).isEqualTo(1);
        assertThat(counts.get("offered").asLong()).isZero();
        assertThat(client.candidates(event, 100)).hasSize(6);
    }

    @Test
    void whenNoNewPlaceCanBeHadTheSpentEntryIsAnswered() {
        String event = event("rejoin-closed", "\"expiredOfferPolicy\":\"DROP\"");
        String visitor = VisitorId.random().value();
        Reply first = client.join(event, visitor);
        expire(event, first.receipt());

        push(event, "OPEN", "SOLD_OUT");
        Reply soldOut = client.join(event, visitor);
        assertThat(soldOut.status()).isEqualTo(200);
        assertThat(soldOut.receipt()).isEqualTo(first.receipt());
        assertThat(soldOut.json().get("mode").asString()).isEqualTo("SOLD_OUT");
        assertThat(client.join(event, VisitorId.random().value()).status())
                .as("a newcomer is refused as before")
                .isEqualTo(409);

        push(event, "ENDED", "SOLD_OUT");
        Reply ended = client.join(event, visitor);
        assertThat(ended.status()).isEqualTo(200);
        assertThat(ended.json().get("phase").asString()).isEqualTo("ENDED");
        assertThat(client.counts(event).get("joins").asLong()).isEqualTo(1);
    }
}
