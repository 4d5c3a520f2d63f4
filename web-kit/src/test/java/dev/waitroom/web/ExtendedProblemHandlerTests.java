package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.web.extended.ExtendedApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ContextConfiguration;

@ContextConfiguration(initializers = KitCredentials.class)
@SpringBootTest(
        classes = ExtendedApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"waitroom.web.ops-credential.paths="})
class ExtendedProblemHandlerTests {

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @Test
    void aSubclassReplacesTheKitsHandlerAndKeepsItsMappings() {
        assertThat(context.getBeansOfType(ProblemHandler.class)).hasSize(1);
        TestHttp http = TestHttp.internal(port);
        assertThat(http.get("/seats")
                        .assertProblem(400, "malformed-request")
                        .get("detail")
                        .asString())
                .isEqualTo("unknown category");
        assertThat(http.get("/nowhere")
                        .assertProblem(404, "not-found")
                        .get("detail")
                        .asString())
                .isEqualTo("no such resource");
        assertThat(http.get("/boom").assertProblem(500, "internal-error").toString())
                .doesNotContain("secret");
    }
}
