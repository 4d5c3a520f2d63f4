package dev.waitroom.queue.web;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import org.redisson.client.RedisException;
import org.redisson.client.RedisOutOfMemoryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Redis failures as problems, before the web kit's handler: unreachable or too slow is 503 with Retry-After (nothing
 * was half-written, each change is one script; try again shortly); a write refused because Redis reached its
 * {@code maxmemory} (run with {@code noeviction}: queue data is never evicted) is 503 {@code queue-store-full} (the
 * script stopped at its first write, so nothing changed and nothing stored was lost); a script error is 500. A
 * {@link RetryLaterException} is its problem with Retry-After.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class QueueStoreProblems {

    private static final Logger log = LoggerFactory.getLogger(QueueStoreProblems.class);

    /** Seconds a visitor is asked to wait when Redis is full: memory comes back as visitors are admitted or leave. */
    static final long STORE_FULL_RETRY_SECONDS = 30;

    @ExceptionHandler(RetryLaterException.class)
    ResponseEntity<ProblemDetail> retryLater(RetryLaterException e, HttpServletRequest request) {
        return ProblemResponses.builder(e.problem())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()))
                .body(ProblemResponses.detail(e.problem(), e.getMessage(), e.properties(), request));
    }

    @ExceptionHandler(RedisException.class)
    ResponseEntity<ProblemDetail> redisUnavailable(RedisException e, HttpServletRequest request) {
        String message = String.valueOf(e.getMessage());
        if (outOfMemory(e)) {
            log.warn("queue store full: Redis refused a write at maxmemory");
            return ProblemResponses.builder(ProblemType.QUEUE_STORE_FULL)
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(STORE_FULL_RETRY_SECONDS))
                    .body(ProblemResponses.detail(
                            ProblemType.QUEUE_STORE_FULL,
                            "The queue cannot take this change now: its store is full. Nothing was changed and every"
                                    + " place already taken is kept. Try again later.",
                            request));
        }
        if (message.startsWith("ERR") || message.contains("user_script")) {
            log.error("queue script failed", e);
            return ProblemResponses.entity(ProblemType.INTERNAL_ERROR, "Internal error.", request);
        }
        log.warn("queue store unavailable: {}", e.getClass().getSimpleName());
        return ProblemResponses.builder(ProblemType.QUEUE_STORE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, "5")
                .body(ProblemResponses.detail(
                        ProblemType.QUEUE_STORE_UNAVAILABLE,
                        "The queue store is unreachable; every place is kept. Try again in a few seconds.",
                        request));
    }

    /**
     * Redis's {@code OOM command not allowed when used memory > 'maxmemory'}: Redisson's own exception for a command,
     * the message inside a script's error (Redis 7 keeps the OOM code, 6.2 wraps it in ERR).
     */
    static boolean outOfMemory(RedisException e) {
        return e instanceof RedisOutOfMemoryException
                || String.valueOf(e.getMessage()).contains("OOM command not allowed");
    }
}
