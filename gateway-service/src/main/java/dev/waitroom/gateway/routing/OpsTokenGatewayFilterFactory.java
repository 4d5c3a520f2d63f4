package dev.waitroom.gateway.routing;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.problem.ProblemResponses;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * {@code /admin/**} needs {@code Authorization: Bearer <ops token>} (route filter {@code OpsToken}, the gateway's
 * counterpart of the web kit's {@code OpsTokenFilter}). Compared in constant time on digests, so neither content nor
 * length leaks through timing. The upstream checks it again.
 */
@Component
public class OpsTokenGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

    private final byte[] expectedDigest;

    OpsTokenGatewayFilterFactory(SecretsProperties secrets) {
        super(Object.class);
        this.expectedDigest = sha256(Headers.BEARER_PREFIX + secrets.opsToken());
    }

    @Override
    public GatewayFilter apply(Object config) {
        return (exchange, chain) -> {
            String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
            if (authorization != null && MessageDigest.isEqual(expectedDigest, sha256(authorization))) {
                return chain.filter(exchange);
            }
            exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"waitroom-admin\"");
            return ProblemResponses.write(
                    exchange,
                    ProblemType.OPS_CREDENTIAL_REQUIRED,
                    "The ops API needs Authorization: Bearer with the ops token.");
        };
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is part of every JDK", ex);
        }
    }
}
