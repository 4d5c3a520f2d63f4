package dev.waitroom.web.testapp;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** A service's own advice, declared without an order: it still comes before the kit's catch-all. */
@RestControllerAdvice
class StoreProblems {

    @ExceptionHandler(StoreDownException.class)
    ResponseEntity<ProblemDetail> storeDown(StoreDownException e, HttpServletRequest request) {
        return ProblemResponses.builder(ProblemType.QUEUE_STORE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, "5")
                .body(ProblemResponses.detail(ProblemType.QUEUE_STORE_UNAVAILABLE, "Try again shortly.", request));
    }
}
