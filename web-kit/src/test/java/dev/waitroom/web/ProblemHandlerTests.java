package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** Every failure a handler can meet becomes a problem of the catalogue, and none repeats what it should not. */
@KitTest
class ProblemHandlerTests {

    @LocalServerPort
    int port;

    TestHttp http;

    @BeforeEach
    void setUp() {
        http = TestHttp.internal(port);
    }

    @Test
    void springMvcErrorsBecomeTheGenericProblemOfTheirStatus() {
        JsonNode noRoute = http.get("/nothing/here").assertProblem(404, "not-found");
        assertThat(noRoute.get("instance").asString()).isEqualTo("/nothing/here");
        assertThat(noRoute.get("detail").asString()).doesNotContain("nothing");

        TestHttp.Response wrongMethod = http.send("DELETE", "/things/1", null);
        wrongMethod.assertProblem(405, "method-not-allowed");
        assertThat(wrongMethod.header("Allow")).contains("GET");

        http.post("/json", "application/json", "{not json").assertProblem(400, "malformed-request");
        http.post("/json", "application/json", "[1,2]").assertProblem(400, "malformed-request");
        http.post("/json", "text/plain", "{}").assertProblem(415, "unsupported-media-type");
        http.get("/things/1", "Accept", "image/png").assertProblem(406, "not-acceptable");
        http.post("/valid", "application/json", "{\"name\":\"\"}").assertProblem(400, "malformed-request");
    }

    @Test
    void parameterErrorsNameTheParameterButNotTheValue() {
        assertThat(http.get("/param")
                        .assertProblem(400, "malformed-request")
                        .get("detail")
                        .asString())
                .contains("'n'");
        JsonNode mismatch = http.get("/param?n=secret-value").assertProblem(400, "malformed-request");
        assertThat(mismatch.get("detail").asString()).contains("'n'").doesNotContain("secret-value");
        assertThat(http.get("/header")
                        .assertProblem(400, "malformed-request")
                        .get("detail")
                        .asString())
                .contains("X-Thing");
    }

    @Test
    void aProblemExceptionIsAnsweredWithItsProblemDetailAndProperties() {
        JsonNode problem = http.get("/fail/problem").assertProblem(409, "sold-out");
        assertThat(problem.get("title").asString()).isEqualTo("The event is sold out");
        assertThat(problem.get("detail").asString()).isEqualTo("Every seat is sold.");
        assertThat(problem.get("instance").asString()).isEqualTo("/fail/problem");
        assertThat(problem.get("reason").asString()).isEqualTo("capacity");

        http.get("/fail/problem-5xx").assertProblem(503, "upstream-unavailable");
    }

    @Test
    void aMalformedValueIsAnsweredWithTheProblemItNames() {
        JsonNode problem = http.get("/fail/malformed").assertProblem(400, "invalid-event-id");
        assertThat(problem.get("detail").asString()).isEqualTo("malformed event id");
    }

    @Test
    void anUnexpectedFailureIsA500ThatSaysNothingAboutIt() {
        TestHttp.Response failed = http.get("/fail/unexpected");
        JsonNode problem = failed.assertProblem(500, "internal-error");
        assertThat(problem.get("detail").asString()).isEqualTo("Internal error.");
        assertThat(failed.body()).doesNotContain("secret-detail-42", "db-host", "IllegalState", "Exception", "at ");
    }

    @Test
    void aStatusWithoutAGenericProblemKeepsItsStatusAndRevealsNoReason() {
        TestHttp.Response conflict = http.get("/fail/status");
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.header("Content-Type")).startsWith("application/problem+json");
        assertThat(conflict.body()).doesNotContain("secret-reason-9");
    }

    @Test
    void aServiceAdviceAnswersItsOwnExceptionsBeforeTheCatchAll() {
        TestHttp.Response storeDown = http.get("/fail/service");
        storeDown.assertProblem(503, "queue-store-unavailable");
        assertThat(storeDown.header("Retry-After")).isEqualTo("5");
        assertThat(storeDown.body()).doesNotContain("10.0.0.7");
    }
}
