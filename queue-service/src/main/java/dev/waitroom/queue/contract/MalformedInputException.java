package dev.waitroom.queue.contract;

/** Input that does not have the expected shape: answered 400, changes nothing. */
public class MalformedInputException extends QueueProblem {

    public MalformedInputException(String detail) {
        super(Problem.MALFORMED, detail);
    }
}
