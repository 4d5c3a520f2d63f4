package dev.waitroom.booking.problem;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/** Builds problem details and writes them from servlet filters, which run outside Spring MVC's error handling. */
@Component
public class ProblemWriter {

    private final JsonMapper json;

    ProblemWriter(JsonMapper json) {
        this.json = json;
    }

    public static ProblemDetail detail(ProblemType type, String detail, Map<String, Object> properties, String instance) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(type.status(), detail);
        problem.setType(type.type());
        problem.setTitle(type.title());
        if (instance != null) {
            problem.setInstance(URI.create(instance));
        }
        properties.forEach(problem::setProperty);
        return problem;
    }

    public void write(HttpServletResponse response, ProblemType type, String detail, String instance) throws IOException {
        ProblemDetail problem = detail(type, detail, Map.of(), instance);
        response.resetBuffer();
        response.setStatus(type.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setHeader("Cache-Control", "no-store");
        response.getOutputStream().write(json.writeValueAsBytes(problem));
        response.flushBuffer();
    }
}
