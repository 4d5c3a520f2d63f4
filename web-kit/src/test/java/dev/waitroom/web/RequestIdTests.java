package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.ServletException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

@KitTest
class RequestIdTests {

    static final String GENERATED = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @LocalServerPort
    int port;

    @Test
    void aWellFormedRequestIdIsKeptEchoedAndLogged() {
        TestHttp http = TestHttp.internal(port);
        for (String id : new String[] {"req-12345678", "a", "gw:0f1e.2d_3c-4b", "x".repeat(100)}) {
            TestHttp.Response response = http.get("/mdc", "X-Request-Id", id);
            assertThat(response.header("X-Request-Id")).isEqualTo(id);
            assertThat(response.json().get("requestId").asString()).isEqualTo(id);
        }
    }

    @Test
    void aMissingOrMalformedRequestIdIsReplacedByAFreshOne() {
        TestHttp http = TestHttp.internal(port);
        for (String id : new String[] {null, "bad id!", "x".repeat(101), "semi;colon", "a/b"}) {
            TestHttp.Response response = id == null ? http.get("/mdc") : http.get("/mdc", "X-Request-Id", id);
            assertThat(response.header("X-Request-Id")).as(id).matches(GENERATED);
            assertThat(response.json().get("requestId").asString()).isEqualTo(response.header("X-Request-Id"));
        }
        assertThat(http.get("/mdc").header("X-Request-Id"))
                .isNotEqualTo(http.get("/mdc").header("X-Request-Id"));
    }

    @Test
    void refusalsCarryTheRequestIdToo() {
        TestHttp.Response refused = new TestHttp(port).get("/things/1", "X-Request-Id", "req-refused-1");
        refused.assertProblem(403, "internal-credential-required");
        assertThat(refused.header("X-Request-Id")).isEqualTo("req-refused-1");
    }

    @Test
    void theRequestIdLeavesTheLoggingContextWhenTheRequestIsDone() {
        RequestIdFilter filter = new RequestIdFilter();
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/x");
        request.addHeader("X-Request-Id", "req-in-flight");
        AtomicReference<String> during = new AtomicReference<>();

        assertThatThrownBy(() -> filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> {
                    during.set(MDC.get(RequestIdFilter.MDC_KEY));
                    throw new ServletException("the handler failed");
                }))
                .isInstanceOf(ServletException.class);

        assertThat(during.get()).isEqualTo("req-in-flight");
        assertThat(MDC.get(RequestIdFilter.MDC_KEY)).isNull();
    }

    @Test
    void theNoopTracerCountsAsNoTracer() throws Exception {
        RequestIdFilter filter = new RequestIdFilter(
                io.micrometer.tracing.Tracer.NOOP, io.micrometer.tracing.propagation.Propagator.NOOP);
        MockHttpServletResponse response = new MockHttpServletResponse();

        filter.doFilter(new MockHttpServletRequest("GET", "/x"), response, (req, res) -> {});

        assertThat(response.getHeader("X-Request-Id")).matches(GENERATED);
    }
}
