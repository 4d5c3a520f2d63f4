package dev.waitroom.booking.access;

import dev.waitroom.booking.ServicesProperties;
import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.JwksSource;
import dev.waitroom.tokens.http.HttpJwksSource;
import dev.waitroom.web.WebKitProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
class AccessConfiguration implements WebMvcConfigurer {

    private final ShopAdmission admission;

    AccessConfiguration(
            AdmissionTokenVerifier verifier,
            AdmissionProperties properties,
            MeterRegistry meters,
            WebKitProperties web) {
        this.admission = new ShopAdmission(
                verifier,
                new SaleGenerations(),
                properties.orderStatusGrace(),
                meters,
                web.security().internalToken());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new AdmissionInterceptor(admission))
                .addPathPatterns("/events/*/shop", "/events/*/shop/**");
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new ShopperArgumentResolver());
    }

    @Configuration(proxyBeanMethods = false)
    static class Verification {

        /** The coordinator's public keys, read with the internal credential. */
        @Bean
        JwksSource coordinatorJwks(ServicesProperties services, WebKitProperties web, AdmissionProperties properties) {
            return HttpJwksSource.of(
                    services.coordinatorUrl(),
                    properties.jwksTimeout(),
                    Map.of(Headers.INTERNAL, web.security().internalToken()));
        }

        @Bean
        AdmissionTokenVerifier admissionTokenVerifier(JwksSource jwks, Clock clock) {
            return AdmissionTokenVerifier.of(jwks, clock);
        }
    }
}
