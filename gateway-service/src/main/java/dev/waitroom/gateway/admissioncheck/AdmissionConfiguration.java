package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.http.HttpJwksSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class AdmissionConfiguration {

    /**
     * The coordinator's published keys, read with the gateway's own credential. Blocking: the verifier calls it at most
     * once per few seconds and only from a bounded-elastic thread.
     */
    @Bean
    HttpJwksSource coordinatorJwksSource(ServicesProperties services, SecretsProperties secrets, EdgeProperties edge) {
        return HttpJwksSource.of(
                services.coordinatorUrl(),
                edge.upstreamTimeout(),
                Map.of(Headers.INTERNAL, secrets.serviceCredential()));
    }

    @Bean
    AdmissionTokenVerifier admissionTokenVerifier(HttpJwksSource jwks, Clock clock, MeterRegistry meters) {
        AdmissionTokenVerifier verifier = AdmissionTokenVerifier.of(jwks, clock);
        Gauge.builder("waitroom.gateway.admission.verified.tokens", verifier, AdmissionTokenVerifier::cachedTokens)
                .description("Admission tokens in the verification cache")
                .register(meters);
        return verifier;
    }
}
