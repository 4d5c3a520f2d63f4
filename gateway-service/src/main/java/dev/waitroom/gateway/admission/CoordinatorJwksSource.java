package dev.waitroom.gateway.admission;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.JwksSource;

/**
 * The coordinator's published keys ({@code GET /.well-known/jwks.json}). Blocking: the verifier
 * calls it at most once per few seconds and only from a bounded-elastic thread.
 */
final class CoordinatorJwksSource implements JwksSource {

	private final HttpClient http;

	private final URI jwks;

	private final Duration timeout;

	private final String internalToken;

	private volatile boolean lastFetchFailed;

	CoordinatorJwksSource(URI coordinatorUrl, String internalToken, Duration timeout) {
		this.internalToken = internalToken;
		this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
		this.jwks = coordinatorUrl.resolve("/.well-known/jwks.json");
		this.timeout = timeout;
	}

	/** Whether the latest attempt to read the JWKS failed (the coordinator is unreachable). */
	boolean lastFetchFailed() {
		return lastFetchFailed;
	}

	@Override
	public String fetch() throws IOException {
		try {
			String jwks = get();
			lastFetchFailed = false;
			return jwks;
		}
		catch (IOException | RuntimeException ex) {
			lastFetchFailed = true;
			throw ex;
		}
	}

	private String get() throws IOException {
		HttpRequest request = HttpRequest.newBuilder(jwks)
			.timeout(timeout)
			.header(Headers.INTERNAL, internalToken)
			.GET()
			.build();
		try {
			HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IOException("JWKS answered " + response.statusCode());
			}
			return response.body();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted while fetching the JWKS", ex);
		}
	}

}
