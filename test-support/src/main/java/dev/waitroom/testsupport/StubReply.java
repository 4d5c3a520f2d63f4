package dev.waitroom.testsupport;

import dev.waitroom.contract.ProblemType;
import java.util.Map;

/** What a route of a {@link RecordingHttpServer} answers: a status, a value to write as JSON (or null), headers. */
public record StubReply(int status, Object body, Map<String, String> headers) {

    public static StubReply json(int status, Object body) {
        return new StubReply(status, body, Map.of());
    }

    /** A problem+json answer of the contract's catalogue, as the real services write it. */
    public static StubReply problem(ProblemType problem) {
        return json(
                problem.status(),
                Map.of("type", problem.type().toString(), "title", problem.title(), "status", problem.status()));
    }
}
