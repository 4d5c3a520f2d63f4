package dev.waitroom.coordinator.web;

import java.net.URI;
import java.util.Map;

import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Every error is application/problem+json with a stable type URI. */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

	private static final Map<Integer, String> SLUG_BY_STATUS = Map.of(400, "invalid-request", 404, "not-found", 405,
			"method-not-allowed", 406, "not-acceptable", 413, "body-too-large", 415, "unsupported-media-type", 503,
			"unavailable");

	@ExceptionHandler(CoordinatorException.class)
	ResponseEntity<ProblemDetail> coordinator(CoordinatorException ex) {
		HttpStatus status = status(ex.kind());
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, ex.getMessage());
		problem.setType(ProblemTypes.of(ex.slug()));
		if (status.is5xxServerError()) {
			log.warn("{}: {}", ex.slug(), ex.getMessage());
		}
		return ResponseEntity.status(status).body(problem);
	}

	@ExceptionHandler(DataAccessException.class)
	ResponseEntity<ProblemDetail> database(DataAccessException ex) {
		log.warn("Database unavailable or failed: {}", ex.getMostSpecificCause().getMessage());
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"Admission is paused: the coordinator cannot reach its database. Your place is kept.");
		problem.setType(ProblemTypes.of("admission-unavailable"));
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(problem);
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<ProblemDetail> unexpected(Exception ex) {
		log.error("Unexpected failure", ex);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
				"Something went wrong on our side.");
		problem.setType(ProblemTypes.of("internal-error"));
		return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(problem);
	}

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (t instanceof LimitedBodyRequest.BodyTooLargeException tooLarge) {
				ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE,
						tooLarge.getMessage());
				problem.setType(ProblemTypes.of("body-too-large"));
				return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(problem);
			}
		}
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				"The request body is not valid JSON for this call.");
		problem.setType(ProblemTypes.of("invalid-request"));
		return ResponseEntity.badRequest().body(problem);
	}

	@Override
	protected ResponseEntity<Object> createResponseEntity(@Nullable Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		if (body instanceof ProblemDetail problem && (problem.getType() == null
				|| URI.create("about:blank").equals(problem.getType()))) {
			problem.setType(ProblemTypes.of(SLUG_BY_STATUS.getOrDefault(statusCode.value(), "http-" + statusCode.value())));
		}
		return super.createResponseEntity(body, headers, statusCode, request);
	}

	private static HttpStatus status(ProblemKind kind) {
		return switch (kind) {
			case INVALID -> HttpStatus.BAD_REQUEST;
			case UNAUTHORIZED -> HttpStatus.UNAUTHORIZED;
			case FORBIDDEN -> HttpStatus.FORBIDDEN;
			case NOT_FOUND -> HttpStatus.NOT_FOUND;
			case CONFLICT -> HttpStatus.CONFLICT;
			case GONE -> HttpStatus.GONE;
			case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
		};
	}

}
