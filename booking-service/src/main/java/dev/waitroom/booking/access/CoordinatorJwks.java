package dev.waitroom.booking.access;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.JwksSource;

/** The coordinator's public keys: an HTTP GET of {@code /.well-known/jwks.json}. */
final class CoordinatorJwks implements JwksSource {

    private final HttpClient http;
    private final URI uri;
    private final String internalToken;
    private final Duration timeout;

    CoordinatorJwks(URI coordinatorUrl, String internalToken, Duration timeout) {
        this.uri = coordinatorUrl.resolve("/.well-known/jwks.json");
        this.internalToken = internalToken;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public String fetch() throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Accept", "application/json")
                .header(Headers.INTERNAL, internalToken)
                .GET()
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException("JWKS fetch answered " + response.statusCode());
            }
            return response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching the JWKS", e);
        }
    }
}
