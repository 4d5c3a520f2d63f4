package dev.waitroom.gateway.testing;

/** The queue contract against the gateway's stand-in for the queue-service, the one its tests talk to. */
class QueueContractOnStubTests extends QueueContractScenarios {

    @Override
    QueueUnderTest queue() {
        return new QueueUnderTest(
                StubUpstreams.get().queue.uri(), StubUpstreams.INTERNAL_TOKEN, StubUpstreams.TICKET_KEY);
    }
}
