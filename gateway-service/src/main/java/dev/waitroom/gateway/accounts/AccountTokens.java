package dev.waitroom.gateway.accounts;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.ResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Collectors;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Verifies the identity provider's sign-in tokens (docs/integration/accounts.md): a JWS JWT whose signature checks against a key of
 * the provider's JWKS (one of the configured asymmetric algorithms: {@code none}, HMAC and encrypted tokens are refused
 * before any key is looked up), whose {@code iss} is the configured issuer, whose {@code aud} contains the configured
 * audience, with {@code sub} and {@code exp}, not expired and not before {@code nbf} (both with the configured skew).
 *
 * <p>The JWKS comes from nimbus's {@link JWKSourceBuilder}: cached for 5 minutes, fetched again when a token names an
 * unknown {@code kid}, at most twice per {@code jwks-refresh-min-interval}, never retried in a loop. Its URL is
 * configured, or read once from the issuer's {@code /.well-known/openid-configuration} on first use (so a gateway
 * starts while the provider is down). Fetches block, so verification runs on the bounded elastic scheduler, never on an
 * event-loop thread; a token verified once is remembered by its SHA-256 for up to a minute (never past its {@code exp}),
 * so a polling page costs one verification a minute.
 *
 * <p>Three answers: {@link Verified} (the account's pseudonym), {@link Invalid} (the token proves nothing: 401), and
 * {@link Unavailable} (the provider's keys cannot be read now, and no key we hold verifies it: fail closed, 503).
 */
final class AccountTokens {

    /** What a token is worth. */
    sealed interface Verification permits Verified, Invalid, Unavailable {}

    /** A valid token of {@code account} (the pseudonym) until {@code expiresAt}. */
    record Verified(String account, Instant expiresAt) implements Verification {}

    /** Not a token of the provider for this gateway; {@code reason} is for logs and metrics, never the subject. */
    record Invalid(String reason) implements Verification {}

    /** The provider's keys cannot be read: the token can be neither accepted nor refused. */
    record Unavailable(String reason) implements Verification {}

    /** Longer tokens are refused unread. */
    static final int MAX_TOKEN_LENGTH = 8192;

    private static final Duration REMEMBER_AT_MOST = Duration.ofMinutes(1);

    private static final long JWKS_CACHE_TTL_MS = Duration.ofMinutes(5).toMillis();

    /** A failed discovery is not repeated sooner than this (every join would otherwise wait for the timeout). */
    private static final Duration DISCOVERY_RETRY = Duration.ofSeconds(5);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AccountsProperties properties;

    private final AccountPseudonyms pseudonyms;

    private final Clock clock;

    private final ResourceRetriever retriever;

    private final Cache<String, Verified> verified;

    private final Object discoveryLock = new Object();

    private volatile DefaultJWTProcessor<SecurityContext> processor;

    private volatile Instant discoveryFailedAt;

    private volatile Instant lastKeyUse = Instant.EPOCH;

    AccountTokens(AccountsProperties properties, Clock clock) {
        this.properties = properties;
        this.pseudonyms = new AccountPseudonyms(properties.pseudonymHmacKey());
        this.clock = clock;
        int timeout = (int) properties.jwksTimeout().toMillis();
        this.retriever = new DefaultResourceRetriever(timeout, timeout, 512 * 1024);
        this.verified = Caffeine.newBuilder()
                .maximumSize(100_000)
                .expireAfter(Expiry.<String, Verified>creating((hash, v) -> rememberFor(v)))
                .build();
        if (properties.jwksUrl() != null) {
            this.processor = processor(properties.jwksUrl());
        }
    }

    /** Verifies off the event loop; a token seen valid within the last minute answers at once. */
    Mono<Verification> verify(String token) {
        if (token.length() > MAX_TOKEN_LENGTH) {
            return Mono.just(new Invalid("too-long"));
        }
        String hash = sha256(token);
        Verified known = verified.getIfPresent(hash);
        if (known != null && known.expiresAt().isAfter(clock.instant())) {
            return Mono.just(known);
        }
        return Mono.fromCallable(() -> verifyBlocking(hash, token)).subscribeOn(Schedulers.boundedElastic());
    }

    private Verification verifyBlocking(String hash, String token) {
        DefaultJWTProcessor<SecurityContext> p;
        try {
            p = processor();
        } catch (KeySourceException e) {
            return new Unavailable("discovery");
        }
        JWTClaimsSet claims;
        try {
            claims = p.process(token, null);
        } catch (ParseException e) {
            return new Invalid("malformed");
        } catch (BadJOSEException e) {
            return new Invalid(e.getMessage() == null ? "rejected" : reasonOf(e));
        } catch (RateLimitReachedException e) {
            // the kid is not among keys fetched moments ago, and the provider was asked twice in this interval: a
            // token of an unknown key while the JWKS answers, an outage while it does not
            return recentlyUsedKeys() ? new Invalid("unknown-key") : new Unavailable("jwks");
        } catch (KeySourceException e) {
            return new Unavailable("jwks");
        } catch (JOSEException e) {
            return new Invalid("signature");
        }
        lastKeyUse = clock.instant();
        Instant expiresAt = claims.getExpirationTime().toInstant();
        Verified ok = new Verified(pseudonyms.of(claims.getIssuer(), claims.getSubject()), expiresAt);
        verified.put(hash, ok);
        return ok;
    }

    private boolean recentlyUsedKeys() {
        return Duration.between(lastKeyUse, clock.instant()).toMillis() < JWKS_CACHE_TTL_MS;
    }

    private static String reasonOf(BadJOSEException e) {
        String m = e.getMessage().toLowerCase(java.util.Locale.ROOT);
        if (m.contains("expired")) {
            return "expired";
        }
        if (m.contains("issuer") || m.contains("\"iss\"")) {
            return "issuer";
        }
        if (m.contains("audience") || m.contains("\"aud\"")) {
            return "audience";
        }
        if (m.contains("unsecured") || m.contains("plain")) {
            return "unsigned";
        }
        if (m.contains("no matching key") || m.contains("algorithm")) {
            return "key-or-algorithm";
        }
        if (m.contains("signature")) {
            return "signature";
        }
        return "claims";
    }

    private Duration rememberFor(Verified v) {
        Duration left = Duration.between(clock.instant(), v.expiresAt());
        if (left.isNegative()) {
            return Duration.ZERO;
        }
        return left.compareTo(REMEMBER_AT_MOST) < 0 ? left : REMEMBER_AT_MOST;
    }

    private DefaultJWTProcessor<SecurityContext> processor() throws KeySourceException {
        DefaultJWTProcessor<SecurityContext> p = processor;
        if (p != null) {
            return p;
        }
        synchronized (discoveryLock) {
            if (processor != null) {
                return processor;
            }
            Instant failed = discoveryFailedAt;
            if (failed != null && Duration.between(failed, clock.instant()).compareTo(DISCOVERY_RETRY) < 0) {
                throw new KeySourceException("discovery failed moments ago");
            }
            try {
                processor = processor(discoverJwksUri());
                discoveryFailedAt = null;
                return processor;
            } catch (IOException | RuntimeException e) {
                discoveryFailedAt = clock.instant();
                throw new KeySourceException("OpenID discovery failed: " + e.getMessage(), e);
            }
        }
    }

    /** {@code jwks_uri} of the issuer's OpenID configuration, whose {@code issuer} must be the configured one. */
    private URI discoverJwksUri() throws IOException {
        String issuer = properties.issuer();
        String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        URL discovery = URI.create(base + "/.well-known/openid-configuration").toURL();
        JsonNode doc = JSON.readTree(retriever.retrieveResource(discovery).getContent());
        JsonNode announced = doc.get("issuer");
        if (announced == null || !issuer.equals(announced.asString())) {
            throw new IOException("the OpenID configuration names another issuer");
        }
        JsonNode jwks = doc.get("jwks_uri");
        if (jwks == null || jwks.asString().isBlank()) {
            throw new IOException("the OpenID configuration has no jwks_uri");
        }
        return URI.create(jwks.asString());
    }

    private DefaultJWTProcessor<SecurityContext> processor(URI jwksUri) {
        JWKSource<SecurityContext> keys;
        try {
            keys = JWKSourceBuilder.<SecurityContext>create(jwksUri.toURL(), retriever)
                    .cache(JWKS_CACHE_TTL_MS, properties.jwksTimeout().toMillis() * 2)
                    .refreshAheadCache(false)
                    .rateLimited(properties.jwksRefreshMinInterval().toMillis())
                    .retrying(false)
                    .outageTolerant(false)
                    .build();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException("waitroom.accounts.jwks-uri is not a URL: " + jwksUri, e);
        }
        Set<JWSAlgorithm> algorithms =
                properties.algorithms().stream().map(JWSAlgorithm::parse).collect(Collectors.toUnmodifiableSet());
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        // access tokens: "JWT" (Keycloak), "at+jwt" (RFC 9068) or none
        p.setJWSTypeVerifier(
                new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null));
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims =
                new DefaultJWTClaimsVerifier<>(
                        Set.of(properties.audience()),
                        new JWTClaimsSet.Builder().issuer(properties.issuer()).build(),
                        Set.of("iss", "sub", "exp"),
                        null) {
                    @Override
                    protected java.util.Date currentTime() {
                        return java.util.Date.from(clock.instant());
                    }
                };
        claims.setMaxClockSkew((int) properties.clockSkew().toSeconds());
        p.setJWTClaimsSetVerifier(claims);
        return p;
    }

    private static String sha256(String token) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
