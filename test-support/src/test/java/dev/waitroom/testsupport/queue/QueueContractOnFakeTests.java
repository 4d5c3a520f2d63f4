package dev.waitroom.testsupport.queue;

/** The queue contract against {@link FakeQueueService}, the queue-service the gateway's and the coordinator's tests talk to. */
class QueueContractOnFakeTests extends QueueContractScenarios {

    @Override
    protected QueueUnderTest queue() {
        FakeQueueService fake = FakeQueueService.shared();
        return new QueueUnderTest(fake.uri(), fake.gatewayCredential(), fake.coordinatorCredential(), fake.ticketKey());
    }
}
