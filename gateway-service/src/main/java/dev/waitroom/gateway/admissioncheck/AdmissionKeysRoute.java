package dev.waitroom.gateway.admissioncheck;

import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code GET /.well-known/waitroom-admission-keys}: the public keys origins verify {@code Waitroom-Admission} with
 * (a JWKS, current key first, then the previous one during a rotation), answered by the gateway itself. Cacheable for
 * a minute: a verifier reads it again on an unknown {@code kid} anyway.
 */
@Configuration(proxyBeanMethods = false)
class AdmissionKeysRoute {

    static final MediaType JWK_SET = MediaType.parseMediaType("application/jwk-set+json");

    @Bean
    RouterFunction<ServerResponse> admissionKeysJwks(AdmissionHeaders headers) {
        return RouterFunctions.route()
                .GET(
                        AdmissionHeaders.JWKS_PATH,
                        request -> ServerResponse.ok()
                                .cacheControl(CacheControl.maxAge(Duration.ofMinutes(1))
                                        .cachePublic())
                                .contentType(JWK_SET)
                                .bodyValue(headers.jwks()))
                .build();
    }
}
