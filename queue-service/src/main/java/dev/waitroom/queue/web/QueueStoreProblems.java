package dev.waitroom.queue.web;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import org.redisson.client.RedisException;
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
 * was half-written, each change is one script; try again shortly), a script error is 500.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class QueueStoreProblems {

    private static final Logger log = LoggerFactory.getLogger(QueueStoreProblems.class);

    @ExceptionHandler(RedisException.class)
    ResponseEntity<ProblemDetail> redisUnavailable(RedisException e, HttpServletRequest request) {
        String message = String.valueOf(e.getMessage());
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
}
