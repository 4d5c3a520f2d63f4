package dev.waitroom.gateway.testing;

import dev.waitroom.testsupport.QueueServiceProcess;

/** The queue contract against the real queue-service, run from its jar on the test JVM's Redis. */
class QueueContractOnQueueServiceTests extends QueueContractScenarios {

    @Override
    QueueUnderTest queue() {
        QueueServiceProcess queue = QueueServiceProcess.shared();
        return new QueueUnderTest(
                queue.baseUrl(), queue.gatewayCredential(), queue.coordinatorCredential(), queue.ticketKey());
    }
}
