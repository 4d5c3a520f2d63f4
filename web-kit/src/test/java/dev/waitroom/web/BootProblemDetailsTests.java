package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.web.testapp.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * With Spring Boot's own problem handling switched on ({@code spring.mvc.problemdetails.enabled=true}), the kit's
 * {@link ProblemHandler} still answers every error: Boot adds its handler only when no
 * {@link ResponseEntityExceptionHandler} exists, and the kit's is registered before Boot looks. Boot's, ordered before
 * the kit's, once turned a chunked body over the limit into a 400.
 */
@ContextConfiguration(initializers = KitCredentials.class)
@SpringBootTest(
        classes = TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.mvc.problemdetails.enabled=true",
            "waitroom.security.ops-token=" + TestHttp.OPS_TOKEN,
            "waitroom.web.max-body-size=1KB"
        })
class BootProblemDetailsTests {

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @Test
    void theKitsHandlerIsTheOnlyOne() {
        assertThat(context.getBeansOfType(ResponseEntityExceptionHandler.class))
                .hasSize(1)
                .allSatisfy((name, handler) -> assertThat(handler).isInstanceOf(ProblemHandler.class));
    }

    @Test
    void aChunkedBodyOverTheLimitIsStill413() {
        TestHttp http = TestHttp.internal(port);
        http.postChunked("/json", "application/json", "{\"pad\":\"" + "x".repeat(5 * 1024) + "\"}")
                .assertProblem(413, "body-too-large");
        http.postChunked("/bytes", "application/octet-stream", "x".repeat(1025)).assertProblem(413, "body-too-large");
    }

    @Test
    void springMvcErrorsAreTheKitsProblems() {
        TestHttp http = TestHttp.internal(port);
        assertThat(http.post("/json", "application/json", "{not json")
                        .assertProblem(400, "malformed-request")
                        .get("detail")
                        .asString())
                .isEqualTo("The request body is missing or not what this call expects.");
        http.get("/nowhere").assertProblem(404, "not-found");
        http.post("/json", "text/plain", "{}").assertProblem(415, "unsupported-media-type");
    }
}
