package dev.waitroom.gateway.testing;

import dev.waitroom.testsupport.SyntheticClients;
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

/**
 * A client that keeps cookies like a browser does (paths included), talking real HTTP to the gateway. Each browser is
 * a client of its own address: it sends {@code X-Forwarded-For} with an address of 198.18.0.0/15 ({@link
 * SyntheticClients}), which the gateway believes from loopback, unless the call names its own.
 */
public final class Browser {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI base;

    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);

    private final TestHttpClient http;

    private final String address;

    public Browser(int port) {
        this(port, SyntheticClients.next());
    }

    /** A browser at {@code address} (sent as {@code X-Forwarded-For}); null sends none (the peer, loopback, is the client). */
    public Browser(int port, String address) {
        this.address = address;
        this.base = URI.create("http://localhost:" + port);
        this.http = TestHttpClient.over(
                // HTTP/1.1 as the gateway serves it in cleartext: no h2c upgrade offered on each new connection
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
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

    /** A request of any method with a JSON body (a DELETE with a reason, say). */
    public Reply sendJson(String method, String path, String jsonBody, String... headers) {
        return exchange(method, path, jsonBody, headers);
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

    /** The address this browser's requests come from, or null for the bare loopback peer. */
    public String address() {
        return address;
    }

    private Reply exchange(String method, String path, String json, String... headers) {
        HttpResponse<String> response = http.send(method, base.resolve(path), json, withAddress(headers));
        return new Reply(response.statusCode(), response.headers().map(), response.body());
    }

    private String[] withAddress(String[] headers) {
        if (address == null) {
            return headers;
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            if (headers[i].equalsIgnoreCase("X-Forwarded-For")) {
                return headers;
            }
        }
        String[] all = java.util.Arrays.copyOf(headers, headers.length + 2);
        all[headers.length] = "X-Forwarded-For";
        all[headers.length + 1] = address;
        return all;
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

        /** Asserts this is the RFC 9457 problem {@code typeSlug} with {@code status}; answers it for chaining. */
        public Reply assertProblem(int status, String typeSlug) {
            org.assertj.core.api.Assertions.assertThat(status()).as(toString()).isEqualTo(status);
            org.assertj.core.api.Assertions.assertThat(header("Content-Type"))
                    .hasValueSatisfying(ct ->
                            org.assertj.core.api.Assertions.assertThat(ct).startsWith("application/problem+json"));
            JsonNode body = json();
            org.assertj.core.api.Assertions.assertThat(body.get("type").asString())
                    .isEqualTo("https://waitroom.dev/problems/" + typeSlug);
            org.assertj.core.api.Assertions.assertThat(body.get("status").asInt())
                    .isEqualTo(status);
            org.assertj.core.api.Assertions.assertThat(body.get("title").asString())
                    .isNotBlank();
            return this;
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
