package dev.waitroom.tokens.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.KeyRing;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpJwksSourceTests {

    private final KeyRing ring = KeyRing.generate(Clock.systemUTC());
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private HttpServer issuer;
    private URI base;

    @BeforeEach
    void startAnIssuer() throws IOException {
        issuer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer.createContext("/", exchange -> {
            try (exchange) {
                seen.add(exchange.getRequestMethod() + " "
                        + exchange.getRequestURI().getPath() + " "
                        + exchange.getRequestHeaders().getFirst("Accept") + " "
                        + exchange.getRequestHeaders().getFirst("X-Credential"));
                byte[] body = ring.publicJwksJson().getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        issuer.start();
        base = URI.create("http://127.0.0.1:" + issuer.getAddress().getPort() + "/ignored/path");
    }

    @AfterEach
    void stopTheIssuer() {
        issuer.stop(0);
    }

    private HttpJwksSource source() {
        return HttpJwksSource.of(base, Duration.ofSeconds(5), Map.of("X-Credential", "secret"));
    }

    @Test
    void getsTheWellKnownJwksWithTheGivenHeaders() throws IOException {
        HttpJwksSource source = source();

        assertThat(source.fetch()).isEqualTo(ring.publicJwksJson());
        assertThat(seen).containsExactly("GET /.well-known/jwks.json application/json secret");
        assertThat(source.lastFetchFailed()).isFalse();
    }

    @Test
    void anAnswerOtherThan200FailsTheFetchUntilOneSucceeds() throws IOException {
        HttpJwksSource source = source();
        status = 503;

        assertThatThrownBy(source::fetch).isInstanceOf(IOException.class).hasMessage("JWKS fetch answered 503");
        assertThat(source.lastFetchFailed()).isTrue();

        status = 200;
        source.fetch();
        assertThat(source.lastFetchFailed()).isFalse();
    }

    @Test
    void anInterruptedFetchIsTheCallersInterruptionNotTheIssuersFailure() {
        HttpJwksSource source = source();
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(source::fetch).isInstanceOf(InterruptedIOException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(source.lastFetchFailed()).isFalse();
    }

    @Test
    void anUnreachableIssuerFailsTheFetch() {
        HttpJwksSource source = source();
        issuer.stop(0);

        assertThatThrownBy(source::fetch).isInstanceOf(IOException.class);
        assertThat(source.lastFetchFailed()).isTrue();
    }

    @Test
    void aVerifierReadsItsKeysThroughIt() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String token = AdmissionTokenIssuer.of(ring)
                .issue(new AdmissionClaims("e", 1, "g", "s", "v", now, now.plusSeconds(60), "j"));

        AdmissionClaims claims =
                AdmissionTokenVerifier.of(source(), Clock.systemUTC()).verify(token, "e", 1);

        assertThat(claims.sessionId()).isEqualTo("s");
    }
}
