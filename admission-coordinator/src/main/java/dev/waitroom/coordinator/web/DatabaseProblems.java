package dev.waitroom.coordinator.web;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * PostgreSQL unreachable or failing: admission pauses (503), visitors keep their place. Every other error is the web
 * kit's {@code ProblemHandler}'s; this advice comes before it.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class DatabaseProblems {

    private static final Logger log = LoggerFactory.getLogger(DatabaseProblems.class);

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ProblemDetail> databaseUnavailable(DataAccessException ex, HttpServletRequest request) {
        log.warn("Database unavailable or failed: {}", ex.getMostSpecificCause().getMessage());
        return ProblemResponses.entity(
                ProblemType.ADMISSION_UNAVAILABLE,
                "Admission is paused: the coordinator cannot reach its database. Your place is kept.",
                request);
    }
}
