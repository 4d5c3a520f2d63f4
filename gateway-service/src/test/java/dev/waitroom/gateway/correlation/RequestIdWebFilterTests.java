package dev.waitroom.gateway.correlation;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The request id without a real tracer: none at all, or tracing's no-op tracer (Spring Boot's when the OpenTelemetry
 * auto-configuration is left out, whose spans have an empty trace id). Either way the client gets an id in the W3C
 * trace-id format, a new one per request, never an empty one.
 */
class RequestIdWebFilterTests {

    static RequestIdWebFilter filter(Tracer tracer) {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        if (tracer != null) {
            beans.registerSingleton("tracer", tracer);
            beans.registerSingleton("propagator", Propagator.NOOP);
        }
        return new RequestIdWebFilter(beans.getBeanProvider(Tracer.class), beans.getBeanProvider(Propagator.class));
    }

    static String requestIdOf(RequestIdWebFilter filter) {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.post("/events/e/queue"));
        filter.filter(exchange, forwarded -> Mono.empty()).block();
        return exchange.getResponse().getHeaders().getFirst("X-Request-Id");
    }

    @Test
    void withoutARealTracerTheRequestIdStillLooksLikeATraceId() {
        for (Tracer tracer : new Tracer[] {null, Tracer.NOOP}) {
            RequestIdWebFilter filter = filter(tracer);
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                String id = requestIdOf(filter);
                assertThat(id).as("tracer %s", tracer).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
                ids.add(id);
            }
            assertThat(ids).hasSize(3);
        }
    }
}
