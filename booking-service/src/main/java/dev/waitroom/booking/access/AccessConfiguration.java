package dev.waitroom.booking.access;

import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.ServicesProperties;
import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.JwksSource;
import dev.waitroom.tokens.http.HttpJwksSource;
import dev.waitroom.web.WebKitAutoConfiguration;
import dev.waitroom.web.WebKitProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Who may shop (docs/security/booking.md): the web kit's internal credential on every route but the payment
 * webhook (application.yml), then on shop routes the gateway's per-request assertion ({@link ShopAssertionFilter}, as
 * the request arrives) and the admission token ({@link AdmissionInterceptor}), which must name the same session.
 */
@Configuration(proxyBeanMethods = false)
class AccessConfiguration implements WebMvcConfigurer {

    /** Right after the web kit's internal credential, before body limit, request metrics' handling and faults. */
    static final int SHOP_ASSERTION_ORDER = WebKitAutoConfiguration.INTERNAL_CREDENTIAL_ORDER + 5;

    private final GatewayAssertions assertions;
    private final ShopAdmission admission;

    AccessConfiguration(
            AdmissionTokenVerifier verifier,
            AdmissionProperties properties,
            SecurityProperties security,
            MeterRegistry meters,
            Clock clock,
            WebKitProperties web) {
        this.assertions = new GatewayAssertions(security.shopAssertions(), clock, meters);
        this.admission = new ShopAdmission(
                verifier,
                assertions,
                new SaleGenerations(),
                properties.orderStatusGrace(),
                meters,
                web.security().internalToken());
    }

    @Bean
    FilterRegistrationBean<ShopAssertionFilter> shopAssertionFilter() {
        FilterRegistrationBean<ShopAssertionFilter> registration =
                new FilterRegistrationBean<>(new ShopAssertionFilter(assertions));
        registration.setOrder(SHOP_ASSERTION_ORDER);
        return registration;
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
