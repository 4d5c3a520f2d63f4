package dev.waitroom.gateway;

import static dev.waitroom.gateway.RoutingTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.ModeStatement;
import dev.waitroom.tokens.ModeStatementSigner;
import dev.waitroom.tokens.VisitorCookieCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue #28, finding 2: with the internal credential, anyone could {@code PUT /internal/events/{e}} with {@code mode:
 * BYPASS} on the queue-service, and the gateway, trusting its snapshot, let everyone into the shop without admission.
 * The gateway now believes BYPASS only with the coordinator's signed statement of it: a queue told BYPASS by anyone
 * else (no statement, a statement signed with another key, an expired one, one of another event, one saying another
 * mode, one of an earlier sale round) lets nobody through, and booking gets no request; the coordinator's own lets
 * everyone through, as BYPASS should.
 */
@GatewayIntegrationTest
class SignedBypassTests {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec visitorCodec = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    /** A key that is not the coordinator's: what an insider without the coordinator's key can sign with. */
    final ModeStatementSigner forger = ModeStatementSigner.of(KeyRing.generate(Clock.systemUTC()));

    @Test
    void aBypassTheQueueWasToldWithoutTheCoordinatorsSignatureLetsNobodyIn() {
        assertRefused("unsigned", event -> null);
    }

    @Test
    void aBypassSignedWithAnyOtherKeyLetsNobodyIn() {
        assertRefused("unknown_key", event -> forger.sign(ModeStatement.of(event, "BYPASS", 1, Instant.now())));
    }

    @Test
    void anExpiredBypassStatementLetsNobodyIn() {
        Instant longAgo = Instant.now().minus(Duration.ofMinutes(5));
        assertRefused("expired", event -> upstreams.coordinator.signMode(event, "BYPASS", 1, longAgo));
    }

    @Test
    void anotherEventsBypassStatementLetsNobodyIn() {
        assertRefused(
                "wrong_event", event -> upstreams.coordinator.signMode("other-" + event, "BYPASS", 1, Instant.now()));
    }

    @Test
    void aSignedStatementOfAnotherModeLetsNobodyIn() {
        assertRefused("not-bypass", event -> upstreams.coordinator.signMode(event, "QUEUEING", 1, Instant.now()));
    }

    @Test
    void aBypassStatementOfAnEarlierSaleRoundLetsNobodyIn() {
        Shopper shopper = shopper();
        upstreams
                .queue
                .event(shopper.event())
                .mode("BYPASS", upstreams.coordinator.signMode(shopper.event(), "BYPASS", 1, Instant.now()))
                .saleGeneration(2);
        assertNobodyIn(shopper, "old-generation");
    }

    @Test
    void theCoordinatorsBypassLetsEveryoneThroughWhileItsStatementLasts() {
        Shopper shopper = shopper();
        upstreams
                .queue
                .event(shopper.event())
                .mode("BYPASS", upstreams.coordinator.signMode(shopper.event(), "BYPASS", 1, Instant.now()));
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(seats(shopper).status()).isEqualTo(200));
        assertThat(bookingCalls(shopper)).isPositive();
        // a forged statement replacing it is not believed, though the verified one was
        upstreams
                .queue
                .event(shopper.event())
                .mode("BYPASS", forger.sign(ModeStatement.of(shopper.event(), "BYPASS", 1, Instant.now())));
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertProblem(seats(shopper), 401, "admission-token-required"));
    }

    private void assertRefused(String reason, Function<String, String> statement) {
        Shopper shopper = shopper();
        upstreams.queue.event(shopper.event()).mode("BYPASS", statement.apply(shopper.event()));
        assertNobodyIn(shopper, reason);
    }

    /**
     * Once the gateway has seen the snapshot saying BYPASS (and counted it refused), requests are refused as without
     * BYPASS, and booking hears nothing.
     */
    private void assertNobodyIn(Shopper shopper, String reason) {
        double before = refused(reason);
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> {
                    assertProblem(seats(shopper), 401, "admission-token-required");
                    assertThat(refused(reason))
                            .as("counted as a refused BYPASS (" + reason + ")")
                            .isGreaterThan(before);
                });
        assertProblem(seats(shopper), 401, "admission-token-required");
        assertThat(bookingCalls(shopper)).as("booking got no request").isZero();
    }

    private double refused(String reason) {
        var counter = meters.find("waitroom.gateway.bypass.refused")
                .tag("reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    record Shopper(Browser browser, String visitor, String event) {}

    private Shopper shopper() {
        Browser browser = new Browser(port);
        String event = "ev-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        assertThat(browser.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String visitor =
                visitorCodec.decode(browser.cookie("wr_vid").orElseThrow()).value();
        return new Shopper(browser, visitor, event);
    }

    private Browser.Reply seats(Shopper shopper) {
        return shopper.browser().get("/events/" + shopper.event() + "/shop/seats");
    }

    private long bookingCalls(Shopper shopper) {
        return upstreams
                .booking
                .received(r -> r.path().startsWith("/events/" + shopper.event() + "/shop"))
                .size();
    }
}
