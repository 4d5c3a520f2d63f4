package dev.waitroom.gateway.testing;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.testsupport.RecordingHttpServer;
import dev.waitroom.testsupport.StubReply;

/**
 * A small real HTTP server standing in for one upstream service. It records every request it receives (so tests can
 * see exactly what the gateway forwarded) and refuses any request without the internal credential where the real
 * service does.
 */
public abstract class StubHttpServer extends RecordingHttpServer {

    private final String internalToken;

    protected StubHttpServer(String internalToken) {
        super(8);
        this.internalToken = internalToken;
    }

    /** The answer, or null to close the connection without one. */
    protected abstract StubReply handle(RecordedRequest request);

    /** Whether this route, as the real service guards it, needs the internal credential: by default every one. */
    protected boolean needsInternalCredential(RecordedRequest request) {
        return true;
    }

    @Override
    protected final StubReply answer(RecordedRequest request, String rawQuery) {
        if (needsInternalCredential(request)
                && !internalToken.equals(request.header(Headers.INTERNAL).orElse(null))) {
            return StubReply.problem(ProblemType.INTERNAL_CREDENTIAL_REQUIRED);
        }
        return handle(request);
    }

    protected static String[] segments(String path) {
        return path.substring(1).split("/");
    }
}
