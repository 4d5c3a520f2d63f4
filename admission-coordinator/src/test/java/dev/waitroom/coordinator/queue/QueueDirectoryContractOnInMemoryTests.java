package dev.waitroom.coordinator.queue;

import dev.waitroom.coordinator.support.InMemoryQueueDirectory;
import dev.waitroom.tokens.VisitorId;

/** The queue contract against the coordinator's in-memory stand-in, the one its other tests run on. */
class QueueDirectoryContractOnInMemoryTests extends QueueDirectoryContractScenarios {

    private final InMemoryQueueDirectory queue = new InMemoryQueueDirectory();

    @Override
    protected QueueDirectory queue() {
        return this.queue;
    }

    @Override
    protected String join(String eventId, VisitorId visitor) {
        return this.queue.join(eventId, visitor.value());
    }

    @Override
    protected void leave(String eventId, VisitorId visitor) {
        this.queue.leave(eventId, visitor.value());
    }
}
