package dev.waitroom.web;

import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error as {@code application/problem+json} of the catalogue ({@link ProblemType}): Spring MVC's own errors (no
 * route, wrong method, unreadable body, wrong media type, missing parameter, type mismatch, ...) as the generic problem
 * for their status ({@link ProblemType#forStatus}); a body over the limit as 413; a {@link ProblemException} and a
 * {@link MalformedValueException} as the problem they carry; anything else as a 500 {@code INTERNAL_ERROR} that says
 * nothing about the failure (it is logged with the route, never the concrete path).
 *
 * <p>Registered by {@link WebKitAutoConfiguration} unless the service declares a subclass. It is ordered last
 * ({@link #ORDER}), so a service's own {@code @RestControllerAdvice} (ordered before it) handles its exceptions first.
 */
@RestControllerAdvice
@Order(ProblemHandler.ORDER)
public class ProblemHandler extends ResponseEntityExceptionHandler {

    /** After every other advice: its catch-all must not hide a service's own handlers. */
    public static final int ORDER = Ordered.LOWEST_PRECEDENCE;

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    private static final URI ABOUT_BLANK = URI.create("about:blank");

    @ExceptionHandler(ProblemException.class)
    public ResponseEntity<ProblemDetail> handleProblem(ProblemException e, HttpServletRequest request) {
        ProblemType problem = e.problem();
        if (problem.status() >= 500) {
            log.warn("{}: {}", problem.slug(), e.getMessage());
        }
        return ProblemResponses.builder(problem)
                .body(ProblemResponses.detail(problem, e.getMessage(), e.properties(), request));
    }

    @ExceptionHandler(MalformedValueException.class)
    public ResponseEntity<ProblemDetail> handleMalformedValue(MalformedValueException e, HttpServletRequest request) {
        return ProblemResponses.entity(e.problem(), e.getMessage(), request);
    }

    @ExceptionHandler(Exception.class)
    public ResponseEntity<ProblemDetail> handleUnexpected(Exception e, HttpServletRequest request) {
        BodyTooLargeException tooLarge = BodyTooLargeException.findIn(e);
        if (tooLarge != null) {
            return ProblemResponses.entity(
                    ProblemType.BODY_TOO_LARGE, BodyLimitFilter.detail(tooLarge.limit()), request);
        }
        log.error("unexpected failure handling {} {}", request.getMethod(), routeOf(request), e);
        return ProblemResponses.entity(ProblemType.INTERNAL_ERROR, "Internal error.", request);
    }

    /** A body cut off at the limit reaches here wrapped by the converter that was reading it. */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        BodyTooLargeException tooLarge = BodyTooLargeException.findIn(e);
        if (tooLarge != null) {
            return handleExceptionInternal(e, null, headers, HttpStatus.CONTENT_TOO_LARGE, request);
        }
        return handleExceptionInternal(e, null, headers, status, request);
    }

    /**
     * A path or query value bound to a type that validates itself (an {@code EventId} in the path) and refused by it
     * answers with the problem it carries, exactly as when the controller parsed the text itself; any other mismatch
     * is the generic problem.
     */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(
            TypeMismatchException e, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (e.getMostSpecificCause() instanceof MalformedValueException malformed) {
            return ProblemResponses.builder(malformed.problem())
                    .body(ProblemResponses.detail(
                            malformed.problem(), malformed.getMessage(), servletRequestOf(request)));
        }
        return super.handleTypeMismatch(e, headers, status, request);
    }

    /**
     * Every Spring MVC error ends here: the generic problem of the catalogue for its status, with a detail of the kit's
     * own that repeats nothing of the request, and the headers Spring chose (such as {@code Allow} on 405).
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception e, Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        Object problem = body instanceof ProblemDetail given && isTyped(given)
                ? given
                : problemFor(e, status, servletRequestOf(request));
        if (status.is5xxServerError()) {
            log.error("failure handling {}", routeOf(servletRequestOf(request)), e);
        }
        HttpHeaders problemHeaders = new HttpHeaders();
        problemHeaders.putAll(headers);
        problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        problemHeaders.setCacheControl("no-store");
        return super.handleExceptionInternal(e, problem, problemHeaders, status, request);
    }

    private ProblemDetail problemFor(Exception e, HttpStatusCode status, HttpServletRequest request) {
        ProblemType type = ProblemType.forStatus(status.value()).orElse(null);
        if (type == null) {
            // no generic problem for this status (a ResponseStatusException of the service): RFC 9457's about:blank
            HttpStatus known = HttpStatus.resolve(status.value());
            String reason = known == null ? "HTTP " + status.value() : known.getReasonPhrase();
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, reason + ".");
            problem.setTitle(reason);
            return problem;
        }
        return ProblemResponses.detail(type, detailFor(e, type), request);
    }

    /**
     * The {@code detail} of a Spring MVC error: names of parameters and headers (from the code) but never a value or a
     * path from the request. Subclasses may word it differently.
     */
    protected String detailFor(Exception e, ProblemType type) {
        if (e instanceof MissingServletRequestParameterException missing) {
            return "The parameter '" + missing.getParameterName() + "' is required.";
        }
        if (e instanceof MissingRequestHeaderException missing) {
            return "The header '" + missing.getHeaderName() + "' is required.";
        }
        if (e instanceof MethodArgumentTypeMismatchException mismatch) {
            return "The parameter '" + mismatch.getName() + "' has the wrong type.";
        }
        if (e instanceof TypeMismatchException mismatch && mismatch.getPropertyName() != null) {
            return "The value of '" + mismatch.getPropertyName() + "' has the wrong type.";
        }
        if (e instanceof MethodArgumentNotValidException || e instanceof HandlerMethodValidationException) {
            return "The request is not valid.";
        }
        return switch (type) {
            case MALFORMED_REQUEST ->
                e instanceof HttpMessageNotReadableException
                        ? "The request body is missing or not what this call expects."
                        : "The request is not valid.";
            case NOT_FOUND -> "No such resource.";
            case METHOD_NOT_ALLOWED -> "This method is not allowed here.";
            case NOT_ACCEPTABLE -> "None of the accepted media types can be produced.";
            case UNSUPPORTED_MEDIA_TYPE -> "This content type is not accepted here.";
            case BODY_TOO_LARGE -> {
                BodyTooLargeException tooLarge = BodyTooLargeException.findIn(e);
                yield tooLarge == null ? "The request body is too large." : BodyLimitFilter.detail(tooLarge.limit());
            }
            case INTERNAL_ERROR -> "Internal error.";
            default -> type.title() + ".";
        };
    }

    private static boolean isTyped(ProblemDetail problem) {
        return problem.getType() != null && !ABOUT_BLANK.equals(problem.getType());
    }

    private static HttpServletRequest servletRequestOf(WebRequest request) {
        return request instanceof NativeWebRequest web ? web.getNativeRequest(HttpServletRequest.class) : null;
    }

    /** The matched route pattern, never the concrete path (it may carry ids). */
    private static String routeOf(HttpServletRequest request) {
        Object pattern = request == null ? null : request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        return pattern == null ? "(no route)" : pattern.toString();
    }
}
