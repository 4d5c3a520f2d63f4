package dev.waitroom.gateway.testing;

import dev.waitroom.testsupport.QueueServiceProcess;
import dev.waitroom.testsupport.queue.QueueContractScenarios;

/**
 * The queue contract (test-support's {@link QueueContractScenarios}, the one {@code FakeQueueService} runs too) against
 * the real queue-service, run from its jar on the test JVM's Redis: here because this module's tests declare the jar.
 */
@QueueServiceProcessTest
class QueueContractOnQueueServiceTests extends QueueContractScenarios {

    @Override
    protected QueueUnderTest queue() {
        QueueServiceProcess queue = QueueServiceProcess.shared();
        return new QueueUnderTest(
                queue.baseUrl(), queue.gatewayCredential(), queue.coordinatorCredential(), queue.ticketKey());
    }
}
