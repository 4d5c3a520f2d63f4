package dev.waitroom.booking.problem;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

@Configuration(proxyBeanMethods = false)
class ProblemConfiguration {

    /** Runs early: a refused body must never reach a handler. */
    public static final int BODY_LIMIT_ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(HttpLimitsProperties limits,
            ProblemWriter problems) {
        var registration = new FilterRegistrationBean<>(new RequestBodyLimitFilter(limits.maxBodyBytes(), problems));
        registration.setOrder(BODY_LIMIT_ORDER);
        registration.addUrlPatterns("/*");
        return registration;
    }
}
