package dev.waitroom.booking.problem;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/** Maps every failure to problem+json with a stable type; unexpected ones are logged without request data. */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class ProblemResponses {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    @ExceptionHandler(ShopProblemException.class)
    ResponseEntity<ProblemDetail> shopProblem(ShopProblemException e, HttpServletRequest request) {
        return respond(e.problem(), e.getMessage(), e.properties(), request);
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ProblemDetail> unreadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        if (causedByTooLarge(e)) {
            return respond(ProblemType.BODY_TOO_LARGE, "the request body is too large", Map.of(), request);
        }
        return respond(ProblemType.MALFORMED_REQUEST, "the request body is not valid JSON of the expected shape",
                Map.of(), request);
    }

    @ExceptionHandler({MethodArgumentNotValidException.class, HandlerMethodValidationException.class,
            MissingRequestHeaderException.class, MissingServletRequestParameterException.class,
            MethodArgumentTypeMismatchException.class, IllegalArgumentException.class})
    ResponseEntity<ProblemDetail> malformed(Exception e, HttpServletRequest request) {
        String detail = e instanceof IllegalArgumentException ? e.getMessage() : "the request is not valid";
        return respond(ProblemType.MALFORMED_REQUEST, detail, Map.of(), request);
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ProblemDetail> notFound(NoResourceFoundException e, HttpServletRequest request) {
        return respond(ProblemType.NOT_FOUND, "no such resource", Map.of(), request);
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ProblemDetail> method(HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        return respond(ProblemType.METHOD_NOT_ALLOWED, "method not allowed here", Map.of(), request);
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ProblemDetail> mediaType(HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
        return respond(ProblemType.UNSUPPORTED_MEDIA_TYPE, "send application/json", Map.of(), request);
    }

    @ExceptionHandler({CannotGetJdbcConnectionException.class, CannotCreateTransactionException.class,
            QueryTimeoutException.class, TransientDataAccessException.class})
    ResponseEntity<ProblemDetail> databaseBusy(Exception e, HttpServletRequest request) {
        log.warn("database unavailable or busy: {}", e.getClass().getSimpleName());
        return respond(ProblemType.DATABASE_BUSY, "the inventory database is busy; try again shortly", Map.of(),
                request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletRequest request) {
        log.error("unexpected failure handling {} {}", request.getMethod(), routeOf(request), e);
        return respond(ProblemType.INTERNAL_ERROR, "internal error", Map.of(), request);
    }

    private static ResponseEntity<ProblemDetail> respond(ProblemType type, String detail, Map<String, Object> properties,
            HttpServletRequest request) {
        ProblemDetail problem = ProblemWriter.detail(type, detail, properties, request.getRequestURI());
        return ResponseEntity.status(type.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(problem);
    }

    private static boolean causedByTooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /** The matched route pattern, never the concrete path (it may carry ids). */
    private static String routeOf(HttpServletRequest request) {
        Object pattern = request.getAttribute(org.springframework.web.servlet.HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        return pattern == null ? "(unmatched)" : pattern.toString();
    }
}
