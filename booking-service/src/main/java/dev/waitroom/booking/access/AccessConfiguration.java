package dev.waitroom.booking.access;

import java.time.Clock;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.ServicesProperties;
import dev.waitroom.booking.problem.ProblemWriter;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.JwksSource;

@Configuration(proxyBeanMethods = false)
class AccessConfiguration implements WebMvcConfigurer {

    private final ShopAdmission admission;

    AccessConfiguration(AdmissionTokenVerifier verifier, AdmissionProperties properties, MeterRegistry meters,
            SecurityProperties security) {
        this.admission = new ShopAdmission(verifier, new SaleGenerations(), properties.orderStatusGrace(), meters,
                security.internalToken());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new AdmissionInterceptor(admission)).addPathPatterns("/events/*/shop", "/events/*/shop/**");
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new ShopperArgumentResolver());
    }

    @Bean
    FilterRegistrationBean<OpsTokenFilter> opsTokenFilter(SecurityProperties security, ProblemWriter problems) {
        var registration = new FilterRegistrationBean<>(new OpsTokenFilter(security, problems));
        registration.addUrlPatterns("/admin/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 30);
        return registration;
    }

    @Configuration(proxyBeanMethods = false)
    static class Verification {

        @Bean
        JwksSource coordinatorJwks(ServicesProperties services, SecurityProperties security,
                AdmissionProperties properties) {
            return new CoordinatorJwks(services.coordinatorUrl(), security.internalToken(), properties.jwksTimeout());
        }

        @Bean
        AdmissionTokenVerifier admissionTokenVerifier(JwksSource jwks, Clock clock) {
            return AdmissionTokenVerifier.of(jwks, clock);
        }
    }
}
