package dev.waitroom.queue.web;

import dev.waitroom.queue.contract.Problem;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/** problem+json written by filters, which run before Spring MVC's message converters. */
final class ProblemResponses {

    private ProblemResponses() {
    }

    static ProblemDetail detail(Problem problem, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(problem.status()), detail);
        body.setType(problem.type());
        body.setTitle(problem.title());
        return body;
    }

    static void write(HttpServletResponse response, Problem problem, String detail) throws IOException {
        response.setStatus(problem.status());
        response.setContentType("application/problem+json");
        response.setCharacterEncoding("UTF-8");
        String json = "{\"type\":\"" + problem.type() + "\",\"title\":\"" + problem.title() + "\",\"status\":"
                + problem.status() + ",\"detail\":\"" + detail.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        response.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
    }
}
