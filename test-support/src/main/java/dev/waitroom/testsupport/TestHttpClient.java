package dev.waitroom.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Real HTTP for tests on the JDK client, the lines each test client of this project wrote for itself: a request of any
 * method with an optional JSON body and header name/value pairs, sent with its checked failures turned unchecked.
 *
 * <pre>
 * TestHttpClient http = TestHttpClient.create(Duration.ofSeconds(10));
 * HttpResponse&lt;String&gt; joined = http.send("POST", base.resolve("/events/e/queue"), "{}", "X-Waitroom-Visitor", visitor);
 * </pre>
 */
public final class TestHttpClient {

    private final HttpClient client;
    private final Duration requestTimeout;

    private TestHttpClient(HttpClient client, Duration requestTimeout) {
        this.client = client;
        this.requestTimeout = requestTimeout;
    }

    /** A client of its own that connects within 5 s; every request must be answered within {@code requestTimeout}. */
    public static TestHttpClient create(Duration requestTimeout) {
        return over(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), requestTimeout);
    }

    /** Requests through {@code client} (one that keeps cookies, say), each answered within {@code requestTimeout}. */
    public static TestHttpClient over(HttpClient client, Duration requestTimeout) {
        return new TestHttpClient(client, requestTimeout);
    }

    /**
     * A request of {@code method} to {@code uri} with its timeout: {@code json} as the body with
     * {@code Content-Type: application/json}, or no body when it is null, then the header name/value pairs. The
     * builder takes more headers before {@link #send(HttpRequest.Builder)}.
     */
    public HttpRequest.Builder request(String method, URI uri, String json, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(requestTimeout)
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request;
    }

    /** {@link #request} sent: the answer with its body as text. */
    public HttpResponse<String> send(String method, URI uri, String json, String... headers) {
        return send(request(method, uri, json, headers));
    }

    public HttpResponse<String> send(HttpRequest.Builder request) {
        return send(request.build());
    }

    /**
     * Sends {@code request} and reads the body as text. An I/O failure is an {@link UncheckedIOException}; an
     * interrupt keeps the thread's flag and is an {@link IllegalStateException}.
     */
    public HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + request.uri(), e);
        }
    }
}
