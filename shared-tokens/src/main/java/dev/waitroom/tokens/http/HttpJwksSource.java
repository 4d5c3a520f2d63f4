package dev.waitroom.tokens.http;

import dev.waitroom.tokens.JwksSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The issuer's published keys over HTTP: a GET of {@value #PATH} at its base URL with the JDK
 * client, answered 200 with the JWKS. Blocking (the verifier calls it rarely, see
 * {@link dev.waitroom.tokens.AdmissionTokenVerifier}); the one class of this library that does I/O.
 */
public final class HttpJwksSource implements JwksSource {

    /** Where an issuer publishes its JWKS, below its base URL. */
    public static final String PATH = "/.well-known/jwks.json";

    private final HttpClient http;
    private final URI jwks;
    private final Duration timeout;
    private final Map<String, String> headers;
    private volatile boolean lastFetchFailed;

    private HttpJwksSource(URI jwks, Duration timeout, Map<String, String> headers) {
        this.jwks = jwks;
        this.timeout = timeout;
        this.headers = headers;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /**
     * The JWKS of the issuer at {@code baseUrl}, connected to and answered within {@code timeout}
     * each, sent with {@code headers} (a credential the issuer wants, say).
     */
    public static HttpJwksSource of(URI baseUrl, Duration timeout, Map<String, String> headers) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(timeout, "timeout");
        return new HttpJwksSource(baseUrl.resolve(PATH), timeout, Map.copyOf(headers));
    }

    /** Whether the latest attempt to read the JWKS failed (the issuer is unreachable or refused). */
    public boolean lastFetchFailed() {
        return lastFetchFailed;
    }

    @Override
    public String fetch() throws IOException {
        try {
            String body = get();
            lastFetchFailed = false;
            return body;
        } catch (InterruptedIOException e) {
            throw e; // the caller's interruption, not the issuer's failure
        } catch (IOException | RuntimeException e) {
            lastFetchFailed = true;
            throw e;
        }
    }

    private String get() throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(jwks)
                .timeout(timeout)
                .header("Accept", "application/json")
                .GET();
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException("JWKS fetch answered " + response.statusCode());
            }
            return response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while fetching the JWKS");
            interrupted.initCause(e);
            throw interrupted;
        }
    }
}
