package dev.waitroom.testsupport.queue;

import dev.waitroom.contract.ProblemType;

/** A call {@link FakeQueueService} refuses with the problem the real queue-service answers. */
final class Refusal extends RuntimeException {

    final ProblemType problem;

    Refusal(ProblemType problem, String detail) {
        super(problem.slug() + ": " + detail, null, false, false);
        this.problem = problem;
    }
}
