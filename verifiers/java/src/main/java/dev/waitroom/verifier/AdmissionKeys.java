package dev.waitroom.verifier;

import java.net.URI;
import java.net.http.HttpClient;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The gateway's public Ed25519 keys, by {@code kid}: a fixed JWKS, or the gateway's published one
 * ({@code GET /.well-known/waitroom-admission-keys}) read over HTTP and refreshed.
 */
public interface AdmissionKeys {

    /** The key with this id, if published; an unknown id may trigger a (rate-limited) refresh. */
    Optional<PublicKey> find(String keyId);

    /** Fixed keys from a JWKS document ({@code {"keys":[{"kty":"OKP","crv":"Ed25519","kid":..,"x":..}]}}). */
    static AdmissionKeys fromJwks(String jwksJson) {
        return JwksDocument.parse(jwksJson)::find;
    }

    /**
     * The JWKS at {@code url}, read at first use, again every {@code refreshEvery}, and on an unknown {@code kid} at
     * most once per 5 s. A failed read keeps the last good keys (an origin keeps serving admitted visitors through a
     * gateway restart); rotation works because the gateway publishes a new key's successor and predecessor together.
     */
    static AdmissionKeys fromUrl(URI url, Duration refreshEvery) {
        return new HttpJwksKeys(
                url,
                refreshEvery,
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build(),
                Clock.systemUTC());
    }
}
