package dev.waitroom.web;

import org.apache.catalina.startup.Tomcat;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * A request target the service cannot decode is answered with a problem like every other error (issue #28): a
 * malformed query by {@link MalformedQueryFilter}, right after the request id (so before the credential checks: the
 * answer says nothing about them), and what Tomcat refuses before any filter by {@link ProblemErrorReportValve}.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class RequestTargetAutoConfiguration {

    /** Right after the request id filter ({@link WebKitAutoConfiguration#REQUEST_ID_ORDER}). */
    public static final int MALFORMED_QUERY_ORDER = WebKitAutoConfiguration.REQUEST_ID_ORDER + 1;

    @Bean
    FilterRegistrationBean<MalformedQueryFilter> webKitMalformedQueryFilter() {
        FilterRegistrationBean<MalformedQueryFilter> registration =
                new FilterRegistrationBean<>(new MalformedQueryFilter());
        registration.setOrder(MALFORMED_QUERY_ORDER);
        registration.addUrlPatterns("/*");
        return registration;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Tomcat.class)
    static class TomcatErrors {

        /**
         * Puts the host's error report valve, innermost of the host's valves (ordered after Boot's customizer, which adds
         * its own when stack traces are never shown): the first valve to report an error is the one whose answer
         * goes out.
         */
        @Bean
        ProblemErrorReports webKitProblemErrorReports() {
            return new ProblemErrorReports();
        }
    }

    static final class ProblemErrorReports
            implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

        @Override
        public void customize(TomcatServletWebServerFactory factory) {
            factory.addContextCustomizers(
                    context -> context.getParent().getPipeline().addValve(new ProblemErrorReportValve()));
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
