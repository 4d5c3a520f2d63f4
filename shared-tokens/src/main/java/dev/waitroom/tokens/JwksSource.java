package dev.waitroom.tokens;

import java.io.IOException;

/**
 * Where a verifier gets the public keys: a JWKS document as JSON, e.g. an HTTP GET of the
 * coordinator's {@code /.well-known/jwks.json}, or {@code keyRing::publicJwksJson} in-process.
 * May block; the verifier calls it rarely (see {@link AdmissionTokenVerifier}).
 */
@FunctionalInterface
public interface JwksSource {

    String fetch() throws IOException;
}
