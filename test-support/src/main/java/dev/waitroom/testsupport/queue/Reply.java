package dev.waitroom.testsupport.queue;

import java.util.Map;

/** The answer of one route of {@link FakeQueueService}: a status, a record to write as JSON (or null), headers. */
record Reply(int status, Object body, Map<String, String> headers) {

    static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store");

    static Reply json(int status, Object body) {
        return new Reply(status, body, Map.of());
    }
}
