package dev.waitroom.verifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.AdmissionHeaderKey;
import dev.waitroom.tokens.AdmissionHeaderSigner;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway's signer and this verifier agree, and rotation works through the published JWKS: a new key's statements
 * verify once the JWKS has it (an unknown kid reads it again, at most every 5 s), the previous key's keep verifying
 * while it is published, and a failed read keeps the last good keys.
 */
class KeyRotationTests {

    private static final String PATH = "/events/e1/shop/seats";

    private final AtomicReference<String> published = new AtomicReference<>();
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2027-01-01T00:00:00Z"));
    private final AtomicInteger reads = new AtomicInteger();
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private HttpServer server;
    private AdmissionVerifier verifier;

    @BeforeEach
    void startJwksServer() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/.well-known/waitroom-admission-keys", exchange -> {
            reads.incrementAndGet();
            String body = published.get();
            if (body == null) {
                exchange.sendResponseHeaders(503, -1);
            } else {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, bytes.length);
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        });
        server.start();
        URI url = URI.create(
                "http://127.0.0.1:" + server.getAddress().getPort() + "/.well-known/waitroom-admission-keys");
        verifier = AdmissionVerifier.builder()
                .keys(new HttpJwksKeys(url, Duration.ofMinutes(5), HttpClient.newHttpClient(), clock))
                .audience("booking")
                .eventId("e1")
                .clock(clock)
                .build();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void rotatesThroughThePublishedJwks() throws Exception {
        AdmissionHeaderKey first = AdmissionHeaderKey.generate();
        AdmissionHeaderKey second = AdmissionHeaderKey.generate();
        AdmissionHeaderSigner before = AdmissionHeaderSigner.of(first, null);
        published.set(before.jwks());
        String old = before.sign(statement());

        assertThat(verifier.verify(old, "GET", PATH).keyId()).isEqualTo(first.keyId());

        // the gateways restart with the new key as current and the old one as previous
        AdmissionHeaderSigner after = AdmissionHeaderSigner.of(second, first);
        published.set(after.jwks());
        String fresh = after.sign(statement());
        now.set(now.get().plusSeconds(6));

        assertThat(verifier.verify(fresh, "GET", PATH).keyId()).isEqualTo(second.keyId());
        assertThat(verifier.verify(old, "GET", PATH).keyId()).isEqualTo(first.keyId());
        assertThat(reads).hasValue(2);
    }

    @Test
    void readsAgainForAnUnknownKidAtMostEveryFiveSecondsAndKeepsTheLastGoodKeys() throws Exception {
        AdmissionHeaderSigner known = AdmissionHeaderSigner.of(AdmissionHeaderKey.generate(), null);
        AdmissionHeaderSigner stranger = AdmissionHeaderSigner.of(AdmissionHeaderKey.generate(), null);
        published.set(known.jwks());
        verifier.verify(known.sign(statement()), "GET", PATH);

        for (int i = 0; i < 20; i++) {
            assertThatThrownBy(() -> verifier.verify(stranger.sign(statement()), "GET", PATH))
                    .extracting(e -> ((AdmissionRejectedException) e).reason())
                    .isEqualTo(RejectionReason.UNKNOWN_KEY);
        }
        assertThat(reads).hasValue(1);

        published.set(null); // the gateway is down
        now.set(now.get().plusSeconds(6));
        assertThatThrownBy(() -> verifier.verify(stranger.sign(statement()), "GET", PATH))
                .isInstanceOf(AdmissionRejectedException.class);
        assertThat(reads).hasValue(2);
        assertThat(verifier.verify(known.sign(statement()), "GET", PATH).sessionId())
                .isEqualTo("s-1");
    }

    private AdmissionHeader statement() {
        return AdmissionHeader.forRequest(
                "booking", "e1", "s-1", "v-1", 2, AdmissionHeader.Scope.SHOPPING, "GET", PATH, now.get());
    }
}
