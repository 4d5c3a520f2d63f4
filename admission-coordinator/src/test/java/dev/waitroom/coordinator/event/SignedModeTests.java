package dev.waitroom.coordinator.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.ModeStatement;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.TokenRejectedException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue #28, finding 2: the gateway believed a queue's snapshot saying BYPASS, and anyone with the internal credential
 * could write it. The coordinator now signs the mode it pushes with its admission keys (verified here through its own
 * JWKS, as the gateway does), re-signs it at every push, and records who changed it in {@code mode_changes}.
 */
@CoordinatorTest
class SignedModeTests {

    @Autowired
    Scenario scenario;

    @Autowired
    EventManagement management;

    @Autowired
    Events events;

    @Autowired
    SigningKeys keys;

    @Test
    void bypassIsPushedWithTheCoordinatorsSignatureOfItAndAnAuditedChange() {
        String eventId = this.scenario.openNewEvent(
                "signed",
                Scenario.config(5, 10, 5, 60, 600, 1200, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        EventId id = EventId.of(eventId);
        AdmissionTokenVerifier gateway = AdmissionTokenVerifier.of(this.keys::publicJwksJson, this.scenario.clock);

        Event bypassed = this.management.changeMode(id, OperatingMode.BYPASS, "ops-alice", "payment outage drill");

        String statement = this.scenario.queue.lastState(eventId).modeStatement();
        ModeStatement verified = gateway.verifyModeStatement(statement, eventId);
        assertThat(verified.bypass()).isTrue();
        assertThat(verified.saleGeneration()).isEqualTo(bypassed.saleGeneration());
        assertThat(Duration.between(verified.issuedAt(), verified.expiresAt())).isEqualTo(ModeStatement.DEFAULT_TTL);
        assertThatThrownBy(() -> gateway.verifyModeStatement(statement, eventId + "-other"))
                .isInstanceOfSatisfying(
                        TokenRejectedException.class,
                        ex -> assertThat(ex.reason()).isEqualTo(RejectionReason.WRONG_EVENT));
        assertThat(this.events.changes(id)).anySatisfy(change -> {
            assertThat(change.kind()).isEqualTo(ChangeKind.MODE);
            assertThat(change.from()).isEqualTo("QUEUEING");
            assertThat(change.to()).isEqualTo("BYPASS");
            assertThat(change.actor()).isEqualTo("ops-alice");
            assertThat(change.reason()).isEqualTo("payment outage drill");
        });

        // the ticker's next push signs it again, later: a bypass lasts as long as the coordinator keeps saying so
        this.scenario.tick(eventId, Duration.ofSeconds(20));
        String again = this.scenario.queue.lastState(eventId).modeStatement();
        assertThat(again).isNotEqualTo(statement);
        assertThat(gateway.verifyModeStatement(again, eventId).issuedAt()).isAfter(verified.issuedAt());

        this.management.endBypass(id, "ops-alice", "drill over");
        assertThat(gateway.verifyModeStatement(
                                this.scenario.queue.lastState(eventId).modeStatement(), eventId)
                        .mode())
                .isEqualTo("QUEUEING");
    }
}
