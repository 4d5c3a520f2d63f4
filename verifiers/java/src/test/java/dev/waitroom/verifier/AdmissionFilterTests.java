package dev.waitroom.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The auto-configured filter in a real embedded Tomcat: vectors' headers over real HTTP. */
@SpringBootTest(
        classes = AdmissionFilterTests.Shop.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "waitroom.verifier.audience=shop.example",
            "waitroom.verifier.event-id=summer-tour",
            "waitroom.verifier.url-patterns=/events/*"
        })
class AdmissionFilterTests {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void keys(DynamicPropertyRegistry registry) {
        registry.add("waitroom.verifier.jwks", Vectors::jwks);
    }

    @Test
    void passesAValidHeaderAndHandsTheAdmissionToTheApplication() throws Exception {
        HttpResponse<String> seats = send("GET", "/events/summer-tour/shop/seats", token("valid"));
        HttpResponse<String> hold = send("POST", "/events/summer-tour/shop/holds", token("valid-post"));

        assertThat(seats.statusCode()).isEqualTo(200);
        assertThat(seats.body()).isEqualTo("s-1 v-9f3Kx2 3 shopping");
        assertThat(hold.statusCode()).isEqualTo(200);
    }

    @Test
    void refusesAMissingOrWrongHeaderWithAProblem() throws Exception {
        HttpResponse<String> missing = send("GET", "/events/summer-tour/shop/seats", null);
        HttpResponse<String> replayed = send("GET", "/events/summer-tour/shop/holds", token("valid"));
        HttpResponse<String> forged = send("GET", "/events/summer-tour/shop/seats", token("alg-none"));

        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(missing.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(missing.body())
                .contains("\"type\":\"https://waitroom.dev/problems/admission-header-invalid\"")
                .contains("\"reason\":\"missing\"");
        assertThat(replayed.body()).contains("\"reason\":\"wrong-path\"");
        assertThat(forged.body()).contains("\"reason\":\"unsupported-algorithm\"");
    }

    @Test
    void leavesPathsOutsideItsPatternsAlone() throws Exception {
        assertThat(send("GET", "/health", null).statusCode()).isEqualTo(200);
    }

    private static String token(String vector) {
        return (String) Vectors.named(vector).get("token");
    }

    private HttpResponse<String> send(String method, String path, String header) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (header != null) {
            request.header(AdmissionVerifier.HEADER, header);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootApplication
    @RestController
    static class Shop {

        @Bean
        Clock clock() {
            return Vectors.clockAt(Map.of("now", Vectors.named("valid").get("now")));
        }

        @GetMapping("/events/summer-tour/shop/seats")
        String seats(HttpServletRequest request) {
            VerifiedAdmission admission = (VerifiedAdmission) request.getAttribute(VerifiedAdmission.ATTRIBUTE);
            return admission.sessionId() + " " + admission.visitor() + " " + admission.saleGeneration() + " "
                    + admission.scope();
        }

        @PostMapping("/events/summer-tour/shop/holds")
        String hold() {
            return "held";
        }

        @GetMapping("/events/summer-tour/shop/holds")
        String holds() {
            return "holds";
        }

        @GetMapping("/health")
        String health() {
            return "ok";
        }
    }
}
