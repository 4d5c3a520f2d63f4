package dev.waitroom.queue.web;

import dev.waitroom.queue.contract.Problem;
import dev.waitroom.queue.contract.QueueProblem;
import org.redisson.client.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Every error as application/problem+json with a stable type per problem (RFC 9457). */
@RestControllerAdvice
class QueueProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(QueueProblemHandler.class);
    private static final MediaType PROBLEM = MediaType.APPLICATION_PROBLEM_JSON;

    @ExceptionHandler(QueueProblem.class)
    ResponseEntity<ProblemDetail> queueProblem(QueueProblem e) {
        return problem(e.problem(), e.getMessage());
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException e) {
        return problem(Problem.MALFORMED, "Parameter '" + e.getName() + "' has the wrong type.");
    }

    /** Redis unreachable or too slow: nothing was half-written (each change is one script); try again shortly. */
    @ExceptionHandler(RedisException.class)
    ResponseEntity<ProblemDetail> redisUnavailable(RedisException e) {
        String message = String.valueOf(e.getMessage());
        if (message.startsWith("ERR") || message.contains("user_script")) {
            log.error("queue script failed", e);
            ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(500), "Internal error.");
            return ResponseEntity.status(500).contentType(PROBLEM).body(body);
        }
        log.warn("queue store unavailable: {}", e.getClass().getSimpleName());
        return ResponseEntity.status(503)
                .header(HttpHeaders.RETRY_AFTER, "5")
                .contentType(PROBLEM)
                .body(ProblemResponses.detail(Problem.STORE_UNAVAILABLE,
                        "The queue store is unreachable; every place is kept. Try again in a few seconds."));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyLimitFilter.BodyTooLargeException) {
                return ResponseEntity.status(413).contentType(PROBLEM)
                        .body(ProblemResponses.detail(Problem.BODY_TOO_LARGE, "The request body is too large."));
            }
        }
        return ResponseEntity.status(400).contentType(PROBLEM)
                .body(ProblemResponses.detail(Problem.MALFORMED, "The request body is not the expected JSON."));
    }

    private static ResponseEntity<ProblemDetail> problem(Problem problem, String detail) {
        return ResponseEntity.status(problem.status()).contentType(PROBLEM).body(ProblemResponses.detail(problem, detail));
    }
}
