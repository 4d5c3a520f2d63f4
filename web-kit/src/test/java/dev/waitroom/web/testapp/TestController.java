package dev.waitroom.web.testapp;

import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.web.AuthenticatedOperator;
import dev.waitroom.web.InternalCaller;
import dev.waitroom.web.ProblemException;
import dev.waitroom.web.RequestIdFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import java.io.IOException;
import java.io.Reader;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.MDC;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

@RestController
public class TestController {

    /** How many requests reached a handler: a refused request never does. */
    public static final AtomicInteger HANDLED = new AtomicInteger();

    /** The most body bytes any handler was handed. */
    public static final AtomicLong LARGEST_BODY = new AtomicLong();

    @GetMapping({"/things/{id}", "/internal/things/{id}", "/admin/things/{id}"})
    Map<String, String> thing(@PathVariable String id) {
        HANDLED.incrementAndGet();
        return Map.of("id", id);
    }

    /** Who the ops check authenticated, as a handler sees it; {@code /whoami} is outside the ops paths. */
    @RequestMapping(
            path = {"/admin/whoami", "/whoami"},
            method = {RequestMethod.GET, RequestMethod.POST})
    Map<String, String> whoami(Operator operator) {
        HANDLED.incrementAndGet();
        return Map.of(
                "name",
                operator.name(),
                "role",
                operator.role().value(),
                "mdc",
                String.valueOf(MDC.get(AuthenticatedOperator.MDC_KEY)));
    }

    @GetMapping("/public/jwks")
    Map<String, String> jwks() {
        HANDLED.incrementAndGet();
        return Map.of("keys", "none");
    }

    /** Which service the internal credential check authenticated, as a handler sees it. */
    @RequestMapping(
            path = "/internal/caller",
            method = {RequestMethod.GET, RequestMethod.POST})
    Map<String, String> caller(HttpServletRequest request) {
        HANDLED.incrementAndGet();
        return Map.of(
                "caller",
                InternalCaller.require(request).wireName(),
                "mdc",
                String.valueOf(MDC.get(InternalCaller.MDC_KEY)));
    }

    @GetMapping("/mdc")
    Map<String, String> mdc() {
        return Map.of("requestId", String.valueOf(MDC.get(RequestIdFilter.MDC_KEY)));
    }

    @PostMapping("/bytes")
    int bytes(@RequestBody byte[] body) {
        return handedOver(body.length);
    }

    @PostMapping("/json")
    int json(@RequestBody Map<String, Object> body) {
        return handedOver(body.toString().length());
    }

    @PostMapping("/reader")
    int reader(HttpServletRequest request) throws IOException {
        Reader reader = request.getReader();
        char[] buffer = new char[256];
        int total = 0;
        for (int n = reader.read(buffer); n >= 0; n = reader.read(buffer)) {
            total += n;
        }
        return handedOver(total);
    }

    record Named(@NotBlank String name) {}

    @PostMapping("/valid")
    String valid(@Valid @RequestBody Named body) {
        return body.name();
    }

    @GetMapping("/param")
    int param(@RequestParam int n) {
        return n;
    }

    @GetMapping("/header")
    String header(@RequestHeader("X-Thing") String thing) {
        return thing;
    }

    @GetMapping("/fail/problem")
    void problem() {
        throw new ProblemException(ProblemType.SOLD_OUT, "Every seat is sold.", Map.of("reason", "capacity"));
    }

    @GetMapping("/fail/problem-5xx")
    void problem5xx() {
        throw new ProblemException(ProblemType.UPSTREAM_UNAVAILABLE, "The queue cannot be reached.");
    }

    @GetMapping("/fail/malformed")
    void malformed() {
        throw new MalformedValueException(ProblemType.INVALID_EVENT_ID, "malformed event id");
    }

    @GetMapping("/fail/unexpected")
    void unexpected() {
        throw new IllegalStateException("secret-detail-42 at db-host-7");
    }

    @GetMapping("/fail/status")
    void status() {
        throw new ResponseStatusException(HttpStatus.CONFLICT, "secret-reason-9");
    }

    @GetMapping("/fail/service")
    void service() {
        throw new StoreDownException();
    }

    private static int handedOver(int length) {
        HANDLED.incrementAndGet();
        LARGEST_BODY.accumulateAndGet(length, Math::max);
        return length;
    }
}
