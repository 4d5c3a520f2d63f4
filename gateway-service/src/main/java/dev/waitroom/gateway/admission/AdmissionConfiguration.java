package dev.waitroom.gateway.admission;

import java.time.Clock;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.tokens.AdmissionTokenVerifier;

@Configuration(proxyBeanMethods = false)
class AdmissionConfiguration {

	@Bean
	CoordinatorJwksSource coordinatorJwksSource(ServicesProperties services, SecretsProperties secrets,
			EdgeProperties edge) {
		return new CoordinatorJwksSource(services.coordinatorUrl(), secrets.internalToken(), edge.upstreamTimeout());
	}

	@Bean
	AdmissionTokenVerifier admissionTokenVerifier(CoordinatorJwksSource jwks, Clock clock, MeterRegistry meters) {
		AdmissionTokenVerifier verifier = AdmissionTokenVerifier.of(jwks, clock);
		Gauge.builder("waitroom.gateway.admission.verified.tokens", verifier, AdmissionTokenVerifier::cachedTokens)
			.description("Admission tokens in the verification cache")
			.register(meters);
		return verifier;
	}

}
