package dev.waitroom.gateway.accounts;

import dev.waitroom.tokens.HmacKey;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The identity provider whose sign-in tokens place a visitor in an ACCOUNT-scoped event (docs/integration/accounts.md). The prefix
 * is {@code waitroom.accounts}, not {@code waitroom.gateway.accounts}: the same environment variables configure the
 * coordinator (which refuses ACCOUNT-scoped events without {@code issuer}) and the queue-service (which names {@code
 * sign-in-url} in its {@code sign-in-required} answers), so one deployment setting feeds all three.
 *
 * <p>Off while {@code issuer} is empty. When on, {@code audience} and {@code pseudonym-key} are required.
 *
 * @param issuer the provider's issuer URL exactly as its tokens' {@code iss} say (Keycloak: {@code
 *     https://host/realms/<realm>})
 * @param audience a value the token's {@code aud} must contain (Keycloak: the client id, through an audience mapper)
 * @param jwksUri where the provider publishes its signing keys; empty: {@code jwks_uri} of {@code
 *     <issuer>/.well-known/openid-configuration}, read on first use
 * @param cookie the name of a cookie carrying the token (set by the site's own sign-in on the shared domain); empty:
 *     only {@code Authorization: Bearer}
 * @param signInUrl where the waiting page sends a visitor who must sign in ({@code signInUrl} of {@code
 *     sign-in-required}); optional
 * @param pseudonymKey base64 of at least 32 random bytes, the same on every gateway: the forwarded account id is
 *     HMAC-SHA256 of (issuer, subject) under it, so no raw subject reaches the queue, Redis or a log
 * @param algorithms the JWS algorithms accepted; asymmetric only ({@code none} and {@code HS*} are refused at start)
 * @param clockSkew tolerance on {@code exp} and {@code nbf}
 * @param jwksTimeout connect and read timeout of a JWKS or discovery fetch
 * @param jwksRefreshMinInterval at most one JWKS fetch per this interval (an unknown {@code kid} triggers one)
 */
@ConfigurationProperties("waitroom.accounts")
public record AccountsProperties(
        String issuer,
        String audience,
        String jwksUri,
        String cookie,
        String signInUrl,
        String pseudonymKey,

        @DefaultValue({"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"})
        List<String> algorithms,

        @DefaultValue("30s") Duration clockSkew,
        @DefaultValue("2s") Duration jwksTimeout,
        @DefaultValue("30s") Duration jwksRefreshMinInterval) {

    public AccountsProperties {
        issuer = blankToNull(issuer);
        audience = blankToNull(audience);
        jwksUri = blankToNull(jwksUri);
        cookie = blankToNull(cookie);
        signInUrl = blankToNull(signInUrl);
        pseudonymKey = blankToNull(pseudonymKey);
        algorithms = algorithms == null ? List.of() : List.copyOf(algorithms);
        if (issuer != null) {
            if (audience == null) {
                throw new IllegalArgumentException("waitroom.accounts.audience (WAITROOM_ACCOUNTS_AUDIENCE) must be set"
                        + " when waitroom.accounts.issuer is");
            }
            if (pseudonymKey == null) {
                throw new IllegalArgumentException("waitroom.accounts.pseudonym-key (WAITROOM_ACCOUNTS_PSEUDONYMKEY)"
                        + " must be set when waitroom.accounts.issuer is: base64 of 32 random bytes, the same on every"
                        + " gateway");
            }
            try {
                HmacKey.fromBase64(pseudonymKey);
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("waitroom.accounts.pseudonym-key must be base64 of at least "
                        + HmacKey.MIN_SECRET_BYTES + " random bytes: " + ex.getMessage());
            }
            if (algorithms.isEmpty()) {
                throw new IllegalArgumentException("waitroom.accounts.algorithms must name at least one algorithm");
            }
            for (String alg : algorithms) {
                String upper = alg.toUpperCase(Locale.ROOT);
                if (upper.equals("NONE") || upper.startsWith("HS")) {
                    throw new IllegalArgumentException(
                            "waitroom.accounts.algorithms accepts asymmetric signatures only,"
                                    + " not " + alg
                                    + " (a token signed with a shared secret, or not at all, proves nothing"
                                    + " here)");
                }
            }
            absolute("waitroom.accounts.issuer", issuer);
            if (jwksUri != null) {
                absolute("waitroom.accounts.jwks-uri", jwksUri);
            }
            if (cookie != null && !cookie.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}")) {
                throw new IllegalArgumentException("waitroom.accounts.cookie is not a cookie name: " + cookie);
            }
        }
    }

    /** An empty value (as compose and Kubernetes pass an unset setting) is no value. */
    private static void absolute(String name, String value) {
        URI uri;
        try {
            uri = new URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException(name + " is not a URL: " + value);
        }
        if (!uri.isAbsolute()
                || !(uri.getScheme().equals("https") || uri.getScheme().equals("http"))) {
            throw new IllegalArgumentException(name + " must be an absolute http(s) URL, not " + value);
        }
    }

    /** The JWKS URL when configured, else null (discovered from the issuer). */
    URI jwksUrl() {
        return jwksUri == null ? null : URI.create(jwksUri);
    }

    /** An identity provider is configured. */
    public boolean enabled() {
        return issuer != null;
    }

    HmacKey pseudonymHmacKey() {
        return HmacKey.fromBase64(pseudonymKey);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    @Override
    public String toString() {
        return "AccountsProperties[issuer=" + issuer + ", audience=" + audience + ", jwksUri=" + jwksUri + ", cookie="
                + cookie + ", signInUrl=" + signInUrl + ", pseudonymKey=" + (pseudonymKey == null ? "none" : "***")
                + ", algorithms=" + algorithms + ", clockSkew=" + clockSkew + "]";
    }
}
