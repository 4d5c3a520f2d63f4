package dev.waitroom.booking.access;

import dev.waitroom.verifier.AdmissionVerifier;
import dev.waitroom.verifier.servlet.AdmissionFilter;
import dev.waitroom.web.WebKitAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Who may shop (docs/design/security/booking.md): booking verifies the gateway's {@code Waitroom-Admission} header exactly as
 * a foreign shop would, through the waitroom-verifier module ({@code waitroom.verifier.*}: the gateway's JWKS or a
 * fixed one, audience {@code booking}). Its servlet filter checks signature, audience, method, raw path and expiry as
 * the request arrives; {@link AdmissionInterceptor} then holds the verified claims against the route (event of the
 * path, scope, sale generation). The web kit's internal credential guards everything else but the payment webhook
 * (application.yml); a shop route gets no credential from the gateway, so it needs none.
 */
@Configuration(proxyBeanMethods = false)
class AccessConfiguration implements WebMvcConfigurer {

    /**
     * Right after the web kit's internal credential, before body limit, request metrics' handling and faults: before
     * fault injection's latency or a slow body could age a 30-second header, and before a request that did not come
     * through the gateway costs anything more.
     */
    static final int ADMISSION_HEADER_ORDER = WebKitAutoConfiguration.INTERNAL_CREDENTIAL_ORDER + 5;

    private final ShopAdmission admission;

    AccessConfiguration(MeterRegistry meters) {
        this.admission = new ShopAdmission(new SaleGenerations(), meters);
    }

    /**
     * The verifier's own filter on every path under {@code /events/} (only shop routes live there), at this service's
     * order; registered here under the auto-configuration's bean name, so the auto-configuration's default one backs
     * off.
     */
    @Bean
    FilterRegistrationBean<AdmissionFilter> waitroomAdmissionFilter(AdmissionVerifier verifier) {
        FilterRegistrationBean<AdmissionFilter> registration =
                new FilterRegistrationBean<>(new AdmissionFilter(verifier));
        registration.setUrlPatterns(List.of("/events/*"));
        registration.setOrder(ADMISSION_HEADER_ORDER);
        registration.setName("waitroomAdmissionFilter");
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
}
