package dev.waitroom.gateway.accounts;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenID provider for tests: a real HTTP server (the JDK's) on loopback that serves {@code
 * <issuer>/.well-known/openid-configuration} and a JWKS with one RSA and one EC P-256 key, and mints tokens signed with
 * them (nimbus), good ones and every kind of bad one. {@link #down(boolean)} makes both endpoints answer 503.
 */
final class TestIdentityProvider implements AutoCloseable {

    static final String AUDIENCE = "waitroom";

    static final String REALM_PATH = "/realms/test";

    private final HttpServer server;

    private final RSAKey rsa;

    private final ECKey ec;

    private volatile boolean down;

    private final AtomicInteger jwksFetches = new AtomicInteger();

    TestIdentityProvider() {
        try {
            this.rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
            this.ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
            this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (JOSEException | IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext(
                REALM_PATH + "/.well-known/openid-configuration",
                exchange -> answer(exchange, "{\"issuer\":\"" + issuer() + "\",\"jwks_uri\":\"" + jwksUri() + "\"}"));
        server.createContext(REALM_PATH + "/protocol/openid-connect/certs", exchange -> {
            jwksFetches.incrementAndGet();
            answer(exchange, new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK())).toString());
        });
        server.start();
    }

    String issuer() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + REALM_PATH;
    }

    URI jwksUri() {
        return URI.create(issuer() + "/protocol/openid-connect/certs");
    }

    void down(boolean down) {
        this.down = down;
    }

    int jwksFetches() {
        return jwksFetches.get();
    }

    RSAKey rsaKey() {
        return rsa;
    }

    /** A valid access token of {@code subject}, RS256, five minutes. */
    String token(String subject) {
        return rsaSigned(claims(subject).build(), "rsa-1", rsa);
    }

    /** A valid access token of {@code subject}, ES256. */
    String ecToken(String subject) {
        try {
            SignedJWT jwt = new SignedJWT(
                    header(JWSAlgorithm.ES256, "ec-1"), claims(subject).build());
            jwt.sign(new ECDSASigner(ec));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Claims as a Keycloak access token has them: issuer, audience, subject, issued now, five minutes valid. */
    JWTClaimsSet.Builder claims(String subject) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder()
                .issuer(issuer())
                .audience(List.of(AUDIENCE, "account"))
                .subject(subject)
                .claim("email", subject + "@example.org")
                .issueTime(Date.from(now))
                .notBeforeTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(300)))
                .jwtID(UUID.randomUUID().toString());
    }

    String signed(JWTClaimsSet claims) {
        return rsaSigned(claims, "rsa-1", rsa);
    }

    /** Signed by a key of its own that claims the provider's key id: the signature does not verify. */
    String forged(String subject) {
        try {
            return rsaSigned(
                    claims(subject).build(),
                    "rsa-1",
                    new RSAKeyGenerator(2048).keyID("rsa-1").generate());
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Signed by a key the JWKS does not have, under a key id it does not name. */
    String unknownKey(String subject) {
        try {
            return rsaSigned(
                    claims(subject).build(),
                    "rsa-9",
                    new RSAKeyGenerator(2048).keyID("rsa-9").generate());
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code alg: none}, no signature. */
    String unsigned(String subject) {
        return new PlainJWT(claims(subject).build()).serialize();
    }

    /**
     * HS256 with the provider's public RSA key as the HMAC secret, under its key id: the "algorithm confusion" forgery
     * that a verifier trusting the header's {@code alg} would accept.
     */
    String hmacWithThePublicKey(String subject) {
        try {
            byte[] secret = rsa.toPublicJWK().toRSAPublicKey().getEncoded();
            SignedJWT jwt = new SignedJWT(
                    header(JWSAlgorithm.HS256, "rsa-1"), claims(subject).build());
            jwt.sign(new MACSigner(secret));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String rsaSigned(JWTClaimsSet claims, String kid, RSAKey key) {
        try {
            SignedJWT jwt = new SignedJWT(header(JWSAlgorithm.RS256, kid), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JWSHeader header(JWSAlgorithm alg, String kid) {
        return new JWSHeader.Builder(alg).keyID(kid).type(JOSEObjectType.JWT).build();
    }

    private void answer(HttpExchange exchange, String json) throws IOException {
        byte[] body = (down ? "{\"error\":\"down\"}" : json).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(down ? 503 : 200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
