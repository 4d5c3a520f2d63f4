package dev.waitroom.coordinator.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.coordinator.queue.QueueRejectedException;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.testsupport.queue.FakeQueueService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * An event created with no opening time is opened by the ticker at once, possibly on another instance, before the
 * creating request has pushed its (now stale) SCHEDULED state. The queue refuses the stale push; creating the event
 * must still succeed, because the ticker pushes the current state within seconds.
 */
@CoordinatorTest
class StalePushTests {

    @Autowired
    ApplicationContext context;

    @Autowired
    EventManagement management;

    @Autowired
    EventStatePublisher publisher;

    @Autowired
    FakeQueueService queue;

    @Test
    void aStalePushTheQueueRefusesIsNotAnErrorForBestEffortCallers() {
        String id = Scenario.eventId("stale");
        Event created = this.management.create(
                EventId.of(id),
                Scenario.config(5, 10, 5, 30, 60, 120, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE),
                "test");
        this.management.open(EventId.of(id), "test", "opens now");
        assertThat(this.queue.lastState(id).phase()).isEqualTo("OPEN");

        this.publisher.publishQuietly(created);

        assertThat(this.queue.lastState(id).phase())
                .as("the newer state stands")
                .isEqualTo("OPEN");
        assertThatThrownBy(() -> this.publisher.publish(created)).isInstanceOf(QueueRejectedException.class);
    }
}
