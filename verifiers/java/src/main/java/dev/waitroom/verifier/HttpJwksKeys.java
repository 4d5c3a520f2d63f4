package dev.waitroom.verifier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The gateway's JWKS over HTTP: see {@link AdmissionKeys#fromUrl}. */
final class HttpJwksKeys implements AdmissionKeys {

    static final Duration UNKNOWN_KID_FLOOR = Duration.ofSeconds(5);
    private static final Logger LOG = Logger.getLogger(HttpJwksKeys.class.getName());
    private static final int MAX_BYTES = 64 * 1024;

    private final URI url;
    private final Duration refreshEvery;
    private final HttpClient http;
    private final Clock clock;

    private volatile JwksDocument keys;
    private volatile Instant readAt = Instant.MIN;
    private volatile Instant attemptedAt = Instant.MIN;

    HttpJwksKeys(URI url, Duration refreshEvery, HttpClient http, Clock clock) {
        this.url = Objects.requireNonNull(url, "url");
        this.refreshEvery = Objects.requireNonNull(refreshEvery, "refreshEvery");
        this.http = http;
        this.clock = clock;
    }

    @Override
    public Optional<PublicKey> find(String keyId) {
        Instant now = clock.instant();
        JwksDocument current = keys;
        if (current == null || now.isAfter(readAt.plus(refreshEvery))) {
            current = refresh(now);
        }
        Optional<PublicKey> key = current == null ? Optional.empty() : current.find(keyId);
        if (key.isEmpty() && now.isAfter(attemptedAt.plus(UNKNOWN_KID_FLOOR))) {
            current = refresh(now);
            key = current == null ? Optional.empty() : current.find(keyId);
        }
        return key;
    }

    private synchronized JwksDocument refresh(Instant now) {
        if (!now.isAfter(attemptedAt.plus(Duration.ofSeconds(1)))) {
            return keys; // another thread just tried
        }
        attemptedAt = now;
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(url)
                            .timeout(Duration.ofSeconds(3))
                            .header("Accept", "application/jwk-set+json, application/json")
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200 || response.body().length() > MAX_BYTES) {
                throw new IOException("status " + response.statusCode());
            }
            keys = JwksDocument.parse(response.body());
            readAt = now;
        } catch (IOException | IllegalArgumentException e) {
            LOG.log(
                    Level.WARNING,
                    "Waitroom admission keys not read from {0} ({1}); keeping the last good keys",
                    new Object[] {url, e.getClass().getSimpleName()});
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return keys;
    }
}
