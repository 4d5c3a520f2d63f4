package dev.waitroom.gateway.origin;

import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.springframework.web.server.ResponseStatusException;

/** What became of one request forwarded to a shop origin, as the edge measures it. */
enum Outcome {
    OK("ok"),
    SERVER_ERROR("server-error"),
    TIMEOUT("timeout"),
    CONNECTION_ERROR("connection-error");

    final String tag;

    Outcome(String tag) {
        this.tag = tag;
    }

    static Outcome ofStatus(int status) {
        return status >= 500 ? SERVER_ERROR : OK;
    }

    /**
     * A forwarding error: the routing filter's response timeout (a {@link TimeoutException}, which it maps to a 504
     * {@link ResponseStatusException}), or an I/O failure reaching the origin (refused, reset, closed before the
     * answer, connect timeout); anything else made the gateway answer 5xx itself, counted as a server error.
     */
    static Outcome ofError(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException
                    || t instanceof io.netty.handler.timeout.ReadTimeoutException
                    || (t instanceof ResponseStatusException r
                            && r.getStatusCode().value() == 504)) {
                return TIMEOUT;
            }
        }
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return CONNECTION_ERROR;
            }
        }
        return SERVER_ERROR;
    }
}
