package dev.waitroom.queue.contract;

/** A request the queue refuses; the web layer turns it into problem+json. */
public class QueueProblem extends RuntimeException {

    private final Problem problem;

    public QueueProblem(Problem problem, String detail) {
        super(detail, null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
