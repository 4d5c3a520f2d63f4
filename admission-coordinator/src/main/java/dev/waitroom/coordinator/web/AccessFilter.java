package dev.waitroom.coordinator.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every request but actuator and the public JWKS must carry the internal credential (403 otherwise); {@code /admin/**}
 * also needs the ops bearer token (401 otherwise). Both compared in constant time. Bodies above 16 KiB are refused
 * (413). Sets the correlation id for logs.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class AccessFilter extends OncePerRequestFilter {

	static final String INTERNAL_HEADER = "X-Waitroom-Internal";

	static final long MAX_BODY_BYTES = 16 * 1024;

	private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	private final byte[] internalToken;

	private final byte[] opsBearer;

	AccessFilter(SecurityProperties properties) {
		this.internalToken = properties.internalToken().getBytes(StandardCharsets.UTF_8);
		this.opsBearer = ("Bearer " + properties.opsToken()).getBytes(StandardCharsets.UTF_8);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String requestId = request.getHeader("X-Request-Id");
		if (requestId != null && REQUEST_ID.matcher(requestId).matches()) {
			MDC.put("requestId", requestId);
		}
		try {
			String path = request.getRequestURI().substring(request.getContextPath().length());
			if (!isPublic(request, path)) {
				if (!matches(request.getHeader(INTERNAL_HEADER), this.internalToken)) {
					write(response, 403, "internal-credential", "Forbidden",
							"This service only answers calls that carry the internal credential.");
					return;
				}
				if (path.startsWith("/admin/") || path.equals("/admin")) {
					if (!matches(request.getHeader(HttpHeaders.AUTHORIZATION), this.opsBearer)) {
						response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
						write(response, 401, "ops-credential", "Unauthorized",
								"The ops API needs the ops bearer token.");
						return;
					}
				}
			}
			if (request.getContentLengthLong() > MAX_BODY_BYTES) {
				write(response, 413, "body-too-large", "Content Too Large",
						"Request bodies are limited to " + MAX_BODY_BYTES + " bytes.");
				return;
			}
			chain.doFilter(new LimitedBodyRequest(request, MAX_BODY_BYTES), response);
		}
		finally {
			MDC.remove("requestId");
		}
	}

	private static boolean isPublic(HttpServletRequest request, String path) {
		return path.startsWith("/actuator/") || path.equals("/actuator")
				|| ("GET".equals(request.getMethod()) && path.equals("/.well-known/jwks.json"));
	}

	private static boolean matches(String presented, byte[] expected) {
		if (presented == null) {
			return false;
		}
		return MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), expected);
	}

	private static void write(HttpServletResponse response, int status, String slug, String title, String detail)
			throws IOException {
		response.setStatus(status);
		response.setContentType("application/problem+json");
		response.setCharacterEncoding("UTF-8");
		response.getWriter()
			.write("{\"type\":\"" + ProblemTypes.BASE + slug + "\",\"title\":\"" + title + "\",\"status\":" + status
					+ ",\"detail\":\"" + detail + "\"}");
	}

}
