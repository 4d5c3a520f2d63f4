package dev.waitroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.testsupport.queue.FakeQueueEvent;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfiguration;

/**
 * A gateway in the middle of rotating both HMAC keys (docs/design/security/keys.md): new {@code visitor-key} and
 * {@code ticket-key}, the keys every other test uses as {@code visitor-key-previous} and {@code ticket-key-previous}.
 * A visitor whose cookie the old key signed keeps their place, tickets the queue-service still signs with the old key
 * are answered at the edge, new cookies carry the new key; a cookie or ticket of a third key is worth nothing.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = {GatewayTestInitializer.class, HmacKeyRotationTests.Rotating.class})
class HmacKeyRotationTests {

    static final String NEW_VISITOR_KEY = randomKey();

    static final String NEW_TICKET_KEY = randomKey();

    /** After the usual test secrets: the new keys sign, the usual ones are the previous keys. */
    static final class Rotating implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestPropertyValues.of(
                            "waitroom.security.visitor-key=" + NEW_VISITOR_KEY,
                            "waitroom.security.visitor-key-previous=" + StubUpstreams.VISITOR_KEY,
                            "waitroom.security.ticket-key=" + NEW_TICKET_KEY,
                            "waitroom.security.ticket-key-previous=" + StubUpstreams.TICKET_KEY)
                    .applyTo(context);
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    final VisitorCookieCodec oldCookies = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY));

    final VisitorCookieCodec newCookies = VisitorCookieCodec.of(HmacKey.fromBase64(NEW_VISITOR_KEY));

    final VisitorCookieCodec thirdKeyCookies = VisitorCookieCodec.of(HmacKey.fromBase64(randomKey()));

    static String randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    static String newEvent() {
        return "rot-" + UUID.randomUUID().toString().substring(0, 12);
    }

    static boolean answeredAtEdge(Browser.Reply reply) {
        return reply.header("X-Waitroom-Status-Source").filter("edge"::equals).isPresent();
    }

    @Test
    void aCookieOfThePreviousKeyKeepsItsPlaceAndACookieOfAThirdKeyIsANewVisitor() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event);
        VisitorId waiting = VisitorId.random();
        Browser browser = new Browser(port);
        browser.setCookie("wr_vid", oldCookies.encode(waiting), "/");

        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        assertThat(model.entryOf(waiting.value()))
                .as("the queue sees the same visitor")
                .isNotNull();
        // after the rotation the same visitor, now with a cookie of the new key, finds the same place
        browser.forgetCookie("wr_vid");
        browser.setCookie("wr_vid", newCookies.encode(waiting), "/");
        Browser.Reply again = browser.post("/events/" + event + "/queue", "{}");
        assertThat(again.status()).as(again.toString()).isEqualTo(200);

        VisitorId forged = VisitorId.random();
        Browser stranger = new Browser(port);
        stranger.setCookie("wr_vid", thirdKeyCookies.encode(forged), "/");
        Browser.Reply strangerJoined = stranger.post("/events/" + event + "/queue", "{}");
        assertThat(strangerJoined.status()).isEqualTo(201);
        assertThat(model.entryOf(forged.value()))
                .as("a third key's cookie is no identity")
                .isNull();
        String issued = strangerJoined.allHeaders("set-cookie").stream()
                .filter(c -> c.startsWith("wr_vid="))
                .map(c -> c.substring("wr_vid=".length(), c.indexOf(';')))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no new visitor cookie: " + strangerJoined));
        assertThat(newCookies.decode(issued)).isNotEqualTo(forged);
        assertThatThrownBy(() -> oldCookies.decode(issued))
                .as("new cookies carry the new key")
                .isInstanceOfSatisfying(
                        TokenRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectionReason.UNKNOWN_KEY));
    }

    @Test
    void ticketsOfThePreviousAndTheNewKeyAreAnsweredAtTheEdgeAndAThirdKeysAreForwarded() {
        String event = newEvent();
        FakeQueueEvent model = upstreams.queue.event(event).admissionRate(1.0);
        model.addWaiting(200);
        Browser browser = new Browser(port);
        Browser.Reply joined = browser.post("/events/" + event + "/queue", "{}");
        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        String visitor =
                newCookies.decode(browser.cookie("wr_vid").orElseThrow()).value();
        FakeQueueEntry entry = model.entryOf(visitor);
        String status = "/events/" + event + "/queue/status";
        QueueTicket ticket = new QueueTicket(event, entry.entryId(), entry.orderKey(), Instant.now());

        // the stub queue-service still signs with the previous key
        await().atMost(Duration.ofSeconds(5)).until(() -> answeredAtEdge(browser.get(status)));

        useTicket(
                browser,
                event,
                QueueTicketCodec.of(HmacKey.fromBase64(NEW_TICKET_KEY)).encode(ticket));
        assertThat(answeredAtEdge(browser.get(status)))
                .as("a ticket of the new key")
                .isTrue();

        useTicket(
                browser,
                event,
                QueueTicketCodec.of(HmacKey.fromBase64(randomKey())).encode(ticket));
        double badTickets = meters.counter(
                        "waitroom.gateway.status.polls", "answered", "forwarded", "reason", "bad-ticket")
                .count();
        Browser.Reply forwarded = browser.get(status);
        assertThat(forwarded.status()).isEqualTo(200);
        assertThat(answeredAtEdge(forwarded)).as("a ticket of a third key").isFalse();
        assertThat(meters.counter("waitroom.gateway.status.polls", "answered", "forwarded", "reason", "bad-ticket")
                        .count())
                .isEqualTo(badTickets + 1);
    }

    private static void useTicket(Browser browser, String event, String ticket) {
        browser.forgetCookie("wr_qt");
        browser.setCookie("wr_qt", ticket, "/events/" + event);
    }
}
