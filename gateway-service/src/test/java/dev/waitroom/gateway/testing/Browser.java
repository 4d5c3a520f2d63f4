package dev.waitroom.gateway.testing;

import dev.waitroom.testsupport.TestHttpClient;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A client that keeps cookies like a browser does (paths included), talking real HTTP to the gateway. */
public final class Browser {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI base;

    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);

    private final TestHttpClient http;

    public Browser(int port) {
        this.base = URI.create("http://localhost:" + port);
        this.http = TestHttpClient.over(
                HttpClient.newBuilder()
                        .cookieHandler(cookies)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build(),
                Duration.ofSeconds(10));
    }

    public Reply get(String path, String... headers) {
        return exchange("GET", path, null, headers);
    }

    public Reply post(String path, String jsonBody, String... headers) {
        return exchange("POST", path, jsonBody, headers);
    }

    public Reply delete(String path, String... headers) {
        return exchange("DELETE", path, null, headers);
    }

    public Reply send(String method, String path, String... headers) {
        return exchange(method, path, null, headers);
    }

    public Optional<String> cookie(String name) {
        return cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals(name))
                .map(HttpCookie::getValue)
                .findFirst();
    }

    public void setCookie(String name, String value, String path) {
        HttpCookie cookie = new HttpCookie(name, value);
        cookie.setPath(path);
        cookie.setVersion(0);
        cookie.setDomain("localhost");
        cookies.getCookieStore().add(base, cookie);
    }

    public void forgetCookie(String name) {
        cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals(name))
                .toList()
                .forEach(c -> cookies.getCookieStore().remove(null, c));
    }

    private Reply exchange(String method, String path, String json, String... headers) {
        HttpResponse<String> response = http.send(method, base.resolve(path), json, headers);
        return new Reply(response.statusCode(), response.headers().map(), response.body());
    }

    /** A response: status, headers (lower-case names), body. */
    public record Reply(int status, Map<String, java.util.List<String>> headers, String body) {

        public Optional<String> header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream())
                    .findFirst();
        }

        public java.util.List<String> allHeaders(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream())
                    .toList();
        }

        public JsonNode json() {
            return JSON.readTree(body);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }
}
