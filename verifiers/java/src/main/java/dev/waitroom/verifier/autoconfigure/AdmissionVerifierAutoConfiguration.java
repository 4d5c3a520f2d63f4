package dev.waitroom.verifier.autoconfigure;

import dev.waitroom.verifier.AdmissionKeys;
import dev.waitroom.verifier.AdmissionVerifier;
import dev.waitroom.verifier.servlet.AdmissionFilter;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * Verifies {@code Waitroom-Admission} on a servlet application's requests once {@code waitroom.verifier.audience}
 * and a key source are set (docs/integration/verifiers.md). Beans a service defines itself win.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "jakarta.servlet.Filter")
@ConditionalOnProperty(prefix = "waitroom.verifier", name = "audience")
@EnableConfigurationProperties(AdmissionVerifierProperties.class)
public class AdmissionVerifierAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AdmissionKeys waitroomAdmissionKeys(AdmissionVerifierProperties properties) {
        return properties.jwksUrl() != null
                ? AdmissionKeys.fromUrl(properties.jwksUrl(), properties.jwksRefresh())
                : AdmissionKeys.fromJwks(properties.jwks());
    }

    @Bean
    @ConditionalOnMissingBean
    AdmissionVerifier waitroomAdmissionVerifier(
            AdmissionVerifierProperties properties, AdmissionKeys keys, ObjectProvider<Clock> clock) {
        return AdmissionVerifier.builder()
                .keys(keys)
                .audience(properties.audience())
                .eventId(properties.eventId())
                .clockSkew(properties.clockSkew())
                .clock(clock.getIfAvailable(Clock::systemUTC))
                .build();
    }

    @Bean
    @ConditionalOnProperty(prefix = "waitroom.verifier", name = "enabled", matchIfMissing = true)
    @ConditionalOnMissingBean(name = "waitroomAdmissionFilter")
    FilterRegistrationBean<AdmissionFilter> waitroomAdmissionFilter(
            AdmissionVerifierProperties properties, AdmissionVerifier verifier) {
        FilterRegistrationBean<AdmissionFilter> registration =
                new FilterRegistrationBean<>(new AdmissionFilter(verifier));
        registration.setUrlPatterns(properties.urlPatterns());
        registration.setOrder(properties.order());
        registration.setName("waitroomAdmissionFilter");
        return registration;
    }
}
