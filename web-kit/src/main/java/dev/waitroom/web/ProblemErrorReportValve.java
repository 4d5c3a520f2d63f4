package dev.waitroom.web;

import dev.waitroom.contract.ProblemType;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's own error answers as problems: what Tomcat refuses before any filter or handler runs (a path whose
 * percent-encoding cannot be decoded or that has an encoded separator, a character a request target cannot hold) was
 * its HTML error page. A 400 is {@code bad-path}, as the kit's path checks call the other ambiguous paths, unless the
 * query is at fault ({@code malformed-request}); any other status the generic problem for it
 * ({@link ProblemType#forStatus}). Errors that Spring answers never get here: they are written
 * already.
 */
final class ProblemErrorReportValve extends ErrorReportValve {

    private static final Logger log = LoggerFactory.getLogger(ProblemErrorReportValve.class);

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        ProblemType problem = status == 400
                ? (pathAtFault(request, throwable) ? ProblemType.BAD_PATH : ProblemType.MALFORMED_REQUEST)
                : ProblemType.forStatus(status)
                        .orElse(status >= 500 ? ProblemType.INTERNAL_ERROR : ProblemType.MALFORMED_REQUEST);
        try {
            ProblemResponses.write(response, problem, detail(problem), null);
        } catch (IOException | IllegalStateException e) {
            log.debug("problem for a {} not written: {}", status, e.toString());
        }
    }

    private static String detail(ProblemType problem) {
        return problem == ProblemType.BAD_PATH
                ? "The path has a '%' not followed by two hex digits, or a character a URL cannot hold."
                : problem == ProblemType.MALFORMED_REQUEST
                        ? "The request target has a '%' not followed by two hex digits, or a character a URL cannot hold."
                        : "The request was not accepted.";
    }

    /**
     * Whether Tomcat's 400 is about the path. A request line Tomcat could not parse (a character a request target
     * cannot hold) leaves no request URI, only the exception, whose message quotes the target: the path is at fault
     * when its part before any {@code ?} holds the bad character. Once the line is parsed, Tomcat's own 400s are about
     * the path (escapes it cannot decode, an encoded {@code /} or {@code \\}) unless the query does not decode.
     */
    static boolean pathAtFault(Request request, Throwable throwable) {
        if (request.getRequestURI() != null) {
            return MalformedQueryFilter.decodes(request.getQueryString() == null ? "" : request.getQueryString());
        }
        String target = quotedTarget(throwable);
        if (target == null) {
            return false;
        }
        int query = target.indexOf('?');
        return !holdable(query < 0 ? target : target.substring(0, query));
    }

    /** The request target an {@code IllegalArgumentException} of Tomcat's request-line parser quotes, or null. */
    private static String quotedTarget(Throwable throwable) {
        String message = throwable instanceof IllegalArgumentException ? throwable.getMessage() : null;
        String start = "request target [";
        int from = message == null ? -1 : message.indexOf(start);
        int to = message == null ? -1 : message.lastIndexOf(']');
        return from < 0 || to < from + start.length() ? null : message.substring(from + start.length(), to);
    }

    /** Whether every character may stand in a request target unescaped. */
    private static boolean holdable(String part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c <= ' ' || c >= 127 || "\"<>\\^`{|}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }
}
