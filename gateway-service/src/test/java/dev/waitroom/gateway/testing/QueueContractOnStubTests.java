package dev.waitroom.gateway.testing;

/** The queue contract against the gateway's stand-in for the queue-service, the one its tests talk to. */
class QueueContractOnStubTests extends QueueContractScenarios {

    @Override
    QueueUnderTest queue() {
        // the stand-in knows one caller, the gateway; it does not tell the coordinator's routes apart
        return new QueueUnderTest(
                StubUpstreams.get().queue.uri(),
                StubUpstreams.GATEWAY.credential(),
                StubUpstreams.GATEWAY.credential(),
                StubUpstreams.TICKET_KEY);
    }
}
