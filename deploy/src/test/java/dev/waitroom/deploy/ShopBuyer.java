package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A buyer's browser for the tests of shops nobody here wrote the protection for (issue #27, item 7): its own cookie
 * jar, navigations that ask for HTML, and the waiting room's journey as the page makes it: join, poll until offered,
 * claim with the page's idempotency key, ask the gateway whether the return target is the event's.
 */
final class ShopBuyer {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final HttpClient client;

    private final String base;

    /** A buyer reaching the waiting room at {@code base} (the gateway, or a shop's proxy in front of it). */
    ShopBuyer(String base) {
        this.client = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        this.base = base;
    }

    /** A browser navigation to {@code url} (absolute), with this buyer's cookies. */
    HttpResponse<String> navigate(String url) throws Exception {
        return send(client, html(url));
    }

    /** A navigation by a browser without any cookie. */
    static HttpResponse<String> stranger(String url) throws Exception {
        return send(HttpClient.newHttpClient(), html(url));
    }

    /**
     * From the waiting page {@code location} (a 303's target, with its return) to an admission: the page, the join, the
     * polls until offered, the claim. Returns the claim's answer (200).
     */
    JsonNode joinWaitAndClaim(String event, String location) throws Exception {
        HttpResponse<String> page = navigate(base + location.substring(location.indexOf("/events/")));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(send(client, post(base + "/events/" + event + "/queue")).statusCode())
                .isEqualTo(201);
        await().atMost(Duration.ofSeconds(45))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    HttpResponse<String> status = send(client, api(base + "/events/" + event + "/queue/status"));
                    assertThat(json(status).path("state").asString())
                            .as(status.body())
                            .isEqualTo("OFFERED");
                });
        HttpResponse<String> claimed = send(
                client,
                HttpRequest.newBuilder(URI.create(base + "/events/" + event + "/admission/claim"))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", UUID.randomUUID().toString().replace("-", ""))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build());
        assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);
        return json(claimed);
    }

    /** What the page does once admitted: asks the gateway whether the 303's return target is this event's; that target. */
    String acceptedReturnTarget(String event, String location) throws Exception {
        String target = URLDecoder.decode(
                location.substring(location.indexOf("return=") + "return=".length()), StandardCharsets.UTF_8);
        HttpResponse<String> accepted = send(
                client,
                api(base + "/events/" + event + "/return-target?path="
                        + URLEncoder.encode(target, StandardCharsets.UTF_8)));
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
        return json(accepted).path("target").asString();
    }

    static HttpRequest html(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .header("Accept", "text/html,application/xhtml+xml")
                .timeout(Duration.ofSeconds(15))
                .GET()
                .build();
    }

    static HttpRequest api(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .header("Accept", "application/json")
                .timeout(Duration.ofSeconds(15))
                .GET()
                .build();
    }

    private static HttpRequest post(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(15))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();
    }

    static HttpResponse<String> send(HttpClient client, HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }
}
