package dev.waitroom.gateway.problem;

import java.net.URI;

import org.springframework.http.HttpStatus;

/** Every problem the gateway itself answers, each with a stable {@code type} URI. */
public enum ProblemType {

	NOT_FOUND(HttpStatus.NOT_FOUND, "not-found", "No such resource"),
	METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed"),
	BAD_PATH(HttpStatus.BAD_REQUEST, "bad-path", "Path not accepted"),
	BAD_REQUEST(HttpStatus.BAD_REQUEST, "bad-request", "Bad request"),
	PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Request body too large"),
	OPS_CREDENTIAL_REQUIRED(HttpStatus.UNAUTHORIZED, "ops-credential-required", "Ops credential required"),
	ADMISSION_TOKEN_REQUIRED(HttpStatus.UNAUTHORIZED, "admission-token-required", "Admission token required"),
	ADMISSION_TOKEN_INVALID(HttpStatus.UNAUTHORIZED, "admission-token-invalid", "Admission token not accepted"),
	ADMISSION_TOKEN_EXPIRED(HttpStatus.UNAUTHORIZED, "admission-token-expired", "Admission token expired"),
	ADMISSION_SESSION_ENDED(HttpStatus.UNAUTHORIZED, "admission-session-ended", "Shopping session no longer live"),
	ADMISSION_WRONG_EVENT(HttpStatus.FORBIDDEN, "admission-wrong-event", "Admission token is for another event"),
	ADMISSION_OLD_GENERATION(HttpStatus.FORBIDDEN, "admission-old-generation",
			"Admission token is from an earlier sale"),
	ADMISSION_VISITOR_MISMATCH(HttpStatus.FORBIDDEN, "admission-visitor-mismatch",
			"Admission token belongs to another visitor"),
	ADMISSION_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "admission-unavailable",
			"Admission is temporarily unavailable"),
	RATE_LIMITED(HttpStatus.TOO_MANY_REQUESTS, "rate-limited", "Too many requests"),
	UPSTREAM_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "upstream-unavailable", "Service temporarily unavailable"),
	UPSTREAM_TIMEOUT(HttpStatus.GATEWAY_TIMEOUT, "upstream-timeout", "Service did not answer in time"),
	INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "Unexpected error");

	private static final String BASE = "https://waitroom.dev/problems/";

	private final HttpStatus status;

	private final URI type;

	private final String title;

	ProblemType(HttpStatus status, String slug, String title) {
		this.status = status;
		this.type = URI.create(BASE + slug);
		this.title = title;
	}

	public HttpStatus status() {
		return status;
	}

	public URI type() {
		return type;
	}

	public String title() {
		return title;
	}

}
