package dev.waitroom.booking;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemHandler;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The web kit's problem answers plus the shop's own: a busy or unreachable database is 503 {@code database-busy} (a
 * shopper may retry), and a value a request carries that breaks its rule ({@link IllegalArgumentException} from an
 * id or a request record) is 400 {@code malformed-request} with its message. The kit's more specific handlers
 * (a {@code MalformedValueException} such as a bad event id) still win.
 */
@RestControllerAdvice
class ShopProblemHandler extends ProblemHandler {

    private static final Logger log = LoggerFactory.getLogger(ShopProblemHandler.class);

    @ExceptionHandler({
        CannotGetJdbcConnectionException.class,
        CannotCreateTransactionException.class,
        QueryTimeoutException.class,
        TransientDataAccessException.class
    })
    ResponseEntity<ProblemDetail> databaseBusy(Exception e, HttpServletRequest request) {
        log.warn("database unavailable or busy: {}", e.getClass().getSimpleName());
        return ProblemResponses.entity(
                ProblemType.DATABASE_BUSY, "the inventory database is busy; try again shortly", request);
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<ProblemDetail> malformed(IllegalArgumentException e, HttpServletRequest request) {
        return ProblemResponses.entity(ProblemType.MALFORMED_REQUEST, e.getMessage(), request);
    }
}
