package dev.waitroom.coordinator.grants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.RandomSecretsInitializer;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.tokens.VisitorId;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue #28, finding 3: with one shared credential, anything holding it could read the visitor ids at the front of the
 * queue and claim their offers under {@code X-Waitroom-Visitor} (or {@code X-Waitroom-Claiming-Visitor}) (200 and a token bound to the caller; the real visitor
 * then got 409). The claim, renew and leave trust that header, so only the gateway's credential may call them; booking's
 * is refused, the queue-service's is unknown here, and the visitor's own claim through the gateway still succeeds.
 */
@CoordinatorTest
class ClaimCallerTests {

    @Autowired
    Scenario scenario;

    String eventId;

    String visitor;

    @BeforeEach
    void oneVisitorIsOffered() {
        this.eventId = Scenario.eventId("claim-caller");
        this.scenario.openEvent(
                this.eventId,
                Scenario.config(5, 1000, 100, 30, 120, 300, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        List<String> joined = this.scenario.join(this.eventId, 1);
        this.scenario.tickUntilLive(this.eventId, 1);
        this.visitor = joined.get(0);
    }

    @Test
    void anotherServicesCredentialCannotClaimAVisitorsOfferAndTheVisitorThenClaimsIt() {
        String claim = "/events/" + this.eventId + "/admission/claim";
        Http.Response byBooking =
                this.scenario.as(RandomSecretsInitializer.BOOKING).post(claim, null, Headers.VISITOR, this.visitor);
        assertThat(byBooking.status()).isEqualTo(403);
        assertThat(byBooking.problemType()).endsWith("/caller-not-allowed");
        Http.Response byBookingForTheNext = this.scenario
                .as(RandomSecretsInitializer.BOOKING)
                .post(
                        claim,
                        null,
                        Headers.VISITOR,
                        this.visitor,
                        Headers.CLAIMING_VISITOR,
                        VisitorId.random().value());
        assertThat(byBookingForTheNext.status()).isEqualTo(403);
        assertThat(byBookingForTheNext.problemType()).endsWith("/caller-not-allowed");
        Http.Response byQueue =
                this.scenario.as(RandomSecretsInitializer.QUEUE).post(claim, null, Headers.VISITOR, this.visitor);
        assertThat(byQueue.status()).isEqualTo(403);
        assertThat(byQueue.problemType()).endsWith("/internal-credential-required");
        assertThat(this.scenario.queue.entry(this.eventId, this.visitor).state())
                .isEqualTo(FakeQueueEntry.State.OFFERED);

        Http.Response byTheVisitor =
                this.scenario.as(RandomSecretsInitializer.GATEWAY).post(claim, null, Headers.VISITOR, this.visitor);
        assertThat(byTheVisitor.status()).as(byTheVisitor.body()).isEqualTo(200);
        assertThat(byTheVisitor.json().path("state").asString()).isEqualTo("ACTIVE");
    }

    @Test
    void renewAndLeaveAreTheGatewaysAndTheBookingSignalsBookings() {
        for (String path : new String[] {"/shopping-session/renew", "/shopping-session/leave"}) {
            Http.Response refused = this.scenario
                    .as(RandomSecretsInitializer.BOOKING)
                    .post("/events/" + this.eventId + path, null, Headers.VISITOR, this.visitor);
            assertThat(refused.status()).as(path).isEqualTo(403);
            assertThat(refused.problemType()).as(path).endsWith("/caller-not-allowed");
        }
        Http.Response soldOutByGateway = this.scenario
                .as(RandomSecretsInitializer.GATEWAY)
                .post("/internal/events/" + this.eventId + "/sold-out", "{\"reason\":\"not the gateway's to say\"}");
        assertThat(soldOutByGateway.status()).isEqualTo(403);
        assertThat(soldOutByGateway.problemType()).endsWith("/caller-not-allowed");
        Http.Response opsByBooking = this.scenario
                .as(RandomSecretsInitializer.BOOKING)
                .header(
                        Headers.AUTHORIZATION,
                        Headers.BEARER_PREFIX + this.scenario.security().opsToken())
                .post("/admin/events/" + this.eventId + "/bypass", "{\"reason\":\"let everyone in\"}");
        assertThat(opsByBooking.status()).isEqualTo(403);
        assertThat(opsByBooking.problemType()).endsWith("/caller-not-allowed");
        assertThat(this.scenario
                        .ops()
                        .get("/admin/events/" + this.eventId)
                        .json()
                        .path("mode")
                        .asString())
                .isEqualTo("QUEUEING");
    }
}
