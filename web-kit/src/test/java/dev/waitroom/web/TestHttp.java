package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Real HTTP to the test service: the JDK client for ordinary calls, a raw socket for what a client would not send. */
final class TestHttp {

    static final String OPS_TOKEN = "ops-token-for-tests-0123456789";

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final int port;

    private final Map<String, String> defaults = new LinkedHashMap<>();

    TestHttp(int port) {
        this.port = port;
    }

    /** A client that sends the internal credential on every call. */
    static TestHttp internal(int port) {
        return new TestHttp(port).with("X-Waitroom-Internal", KitCredentials.GATEWAY.value());
    }

    TestHttp with(String header, String value) {
        TestHttp copy = new TestHttp(port);
        copy.defaults.putAll(defaults);
        copy.defaults.put(header, value);
        return copy;
    }

    Response get(String path, String... headers) {
        return send("GET", path, null, headers);
    }

    Response post(String path, String contentType, String body, String... headers) {
        List<String> all = new ArrayList<>(List.of(headers));
        all.add("Content-Type");
        all.add(contentType);
        return send("POST", path, body, all.toArray(String[]::new));
    }

    Response send(String method, String path, String body, String... headers) {
        HttpRequest.BodyPublisher publisher =
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
        return exchange(method, path, publisher, headers);
    }

    /** A POST whose body has no declared length: the client sends it chunked. */
    Response postChunked(String path, String contentType, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return exchange(
                "POST",
                path,
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)),
                "Content-Type",
                contentType);
    }

    private Response exchange(String method, String path, HttpRequest.BodyPublisher body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body);
        defaults.forEach(request::header);
        for (int i = 0; i < headers.length; i += 2) {
            request.setHeader(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            Map<String, List<String>> responseHeaders = new LinkedHashMap<>();
            response.headers()
                    .map()
                    .forEach((name, values) -> responseHeaders.put(name.toLowerCase(Locale.ROOT), values));
            return new Response(response.statusCode(), responseHeaders, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes the request exactly as given (CRLF line ends) on a fresh connection and reads the first response: the
     * path and the framing are what the test says, not what a client library would make of them.
     */
    Response raw(String head, byte[] body) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return readResponse(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Response raw(String head) {
        return raw(head, new byte[0]);
    }

    /** A GET of an exact request target, with the internal credential when {@code credential}. */
    Response rawGet(String target, boolean credential) {
        String head = "GET " + target + " HTTP/1.1\nHost: localhost\nConnection: close\n"
                + (credential ? "X-Waitroom-Internal: " + KitCredentials.GATEWAY.value() + "\n" : "") + "\n";
        return raw(head);
    }

    private static Response readResponse(InputStream in) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String line = line(in); !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (headers.containsKey("content-length")) {
            body.write(
                    in.readNBytes(Integer.parseInt(headers.get("content-length").get(0))));
        } else if (headers.getOrDefault("transfer-encoding", List.of()).contains("chunked")) {
            for (int size = Integer.parseInt(line(in).trim(), 16);
                    size > 0;
                    size = Integer.parseInt(line(in).trim(), 16)) {
                body.write(in.readNBytes(size));
                line(in);
            }
        } else {
            body.write(in.readAllBytes());
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed in the middle of a response");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    record Response(int status, Map<String, List<String>> headers, String body) {

        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }

        JsonNode json() {
            return JSON.readTree(body);
        }

        /** Asserts an RFC 9457 problem of the catalogue, and returns its document. */
        JsonNode assertProblem(int expectedStatus, String slug) {
            assertThat(status).as("status of %s", body).isEqualTo(expectedStatus);
            assertThat(header("Content-Type")).startsWith("application/problem+json");
            assertThat(header("Cache-Control")).isEqualTo("no-store");
            JsonNode problem = json();
            assertThat(problem.get("type").asString()).isEqualTo("https://waitroom.dev/problems/" + slug);
            assertThat(problem.get("status").asInt()).isEqualTo(expectedStatus);
            assertThat(problem.get("title").asString()).isNotBlank();
            return problem;
        }
    }
}
