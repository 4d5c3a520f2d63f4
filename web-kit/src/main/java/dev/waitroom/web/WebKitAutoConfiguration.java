package dev.waitroom.web;

import dev.waitroom.contract.WaitroomService;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import jakarta.servlet.Filter;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The kit in a servlet application: four filters in a fixed order (request id, internal credential, ops token, body
 * limit; a service's own filters pick orders around them) and the {@link ProblemHandler}. A check whose paths are
 * empty is registered disabled.
 *
 * <p>It runs before {@link WebMvcAutoConfiguration}: Boot adds its own problem handler (with
 * {@code spring.mvc.problemdetails.enabled=true}) only when no {@code ResponseEntityExceptionHandler} is defined yet,
 * and that one, ordered before the kit's, would answer Spring MVC's errors itself (a chunked body over the limit as
 * 400, not 413).
 */
@AutoConfiguration(before = WebMvcAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(WebKitProperties.class)
public class WebKitAutoConfiguration {

    /**
     * Right after Boot's server observation filter ({@code HIGHEST_PRECEDENCE + 1}), whose span it reuses when the
     * service observes its requests, and before the checks: every later log line, refusals included, carries the
     * trace and request ids.
     */
    public static final int REQUEST_ID_ORDER = Ordered.HIGHEST_PRECEDENCE + 2;

    public static final int INTERNAL_CREDENTIAL_ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

    public static final int OPS_CREDENTIAL_ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

    /** After the credential checks: a caller without a credential learns nothing about the body limit. */
    public static final int BODY_LIMIT_ORDER = Ordered.HIGHEST_PRECEDENCE + 30;

    @Bean
    FilterRegistrationBean<RequestIdFilter> webKitRequestIdFilter(
            ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        Tracer t = tracer.getIfAvailable();
        Propagator p = propagator.getIfAvailable();
        RequestIdFilter filter = t == null || p == null ? new RequestIdFilter() : new RequestIdFilter(t, p);
        return registration(filter, REQUEST_ID_ORDER, true);
    }

    @Bean
    FilterRegistrationBean<InternalCredentialFilter> webKitInternalCredentialFilter(WebKitProperties properties) {
        WebKitProperties.InternalCredential check = properties.web().internalCredential();
        PathRules paths = PathRules.of(check.paths());
        Map<WaitroomService, List<byte[]>> hashes = new EnumMap<>(WaitroomService.class);
        Map<WaitroomService, PathRules> routes = new EnumMap<>(WaitroomService.class);
        for (WaitroomService caller : WaitroomService.values()) {
            List<byte[]> callerHashes = properties.security().callerHashes(caller);
            if (!callerHashes.isEmpty()) {
                hashes.put(caller, callerHashes);
                routes.put(caller, PathRules.of(properties.web().callers().get(caller.wireName())));
            }
        }
        var filter = new InternalCredentialFilter(hashes, routes, paths, PathRules.of(check.publicPaths()));
        return registration(filter, INTERNAL_CREDENTIAL_ORDER, !paths.isEmpty());
    }

    @Bean
    FilterRegistrationBean<OpsTokenFilter> webKitOpsTokenFilter(WebKitProperties properties) {
        PathRules paths = PathRules.of(properties.web().opsCredential().paths());
        var filter = new OpsTokenFilter(properties.security().operatorCredentials(), paths);
        return registration(filter, OPS_CREDENTIAL_ORDER, !paths.isEmpty());
    }

    @Bean
    FilterRegistrationBean<BodyLimitFilter> webKitBodyLimitFilter(WebKitProperties properties) {
        var filter = new BodyLimitFilter(properties.web().maxBodySize().toBytes());
        return registration(filter, BODY_LIMIT_ORDER, true);
    }

    /** A handler parameter of type {@code Operator}: who the ops check authenticated. */
    @Bean
    WebMvcConfigurer webKitOperatorArguments() {
        return new WebMvcConfigurer() {
            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(new OperatorArgumentResolver());
            }
        };
    }

    @Bean
    @ConditionalOnMissingBean(ProblemHandler.class)
    ProblemHandler webKitProblemHandler() {
        return new ProblemHandler();
    }

    private static <F extends Filter> FilterRegistrationBean<F> registration(F filter, int order, boolean enabled) {
        FilterRegistrationBean<F> registration = new FilterRegistrationBean<>(filter);
        registration.setOrder(order);
        registration.setEnabled(enabled);
        registration.addUrlPatterns("/*");
        return registration;
    }
}
