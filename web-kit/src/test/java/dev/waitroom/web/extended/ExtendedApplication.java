package dev.waitroom.web.extended;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemHandler;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** A service that extends the kit's handler instead of adding an advice next to it. */
@SpringBootApplication
public class ExtendedApplication {

    @RestControllerAdvice
    static class ShopProblemHandler extends ProblemHandler {

        @ExceptionHandler(IllegalArgumentException.class)
        ResponseEntity<ProblemDetail> illegalArgument(IllegalArgumentException e, HttpServletRequest request) {
            return ProblemResponses.entity(ProblemType.MALFORMED_REQUEST, e.getMessage(), request);
        }

        @Override
        protected String detailFor(Exception e, ProblemType type) {
            return type == ProblemType.NOT_FOUND ? "no such resource" : super.detailFor(e, type);
        }
    }

    @RestController
    static class ShopController {

        @GetMapping("/seats")
        String seats() {
            throw new IllegalArgumentException("unknown category");
        }

        @GetMapping("/boom")
        String boom() {
            throw new IllegalStateException("secret");
        }
    }
}
