package dev.waitroom.gateway.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.GatewayApplication;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.RedisReachableFirst;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RecordedRequest;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfiguration;

/**
 * The identity provider's availability, against the stub queue-service (which records what the gateway forwards). The
 * JWKS URL is not configured: the gateway reads it from the issuer's {@code /.well-known/openid-configuration} on first
 * use. While the provider cannot be reached and no key is held, a join with a token fails closed (503 {@code
 * unavailable}, {@code Retry-After}, nothing forwarded): never anonymous, never guessed. Once it answers, joins go
 * through with the account's pseudonym (same person, same id, by header or cookie; never the subject, the token or the
 * cookie upstream). When it goes down again, keys already fetched keep verifying (nimbus caches the JWKS for 5
 * minutes). A token in the cookie is never refused by the gateway itself: its verdict goes to the queue-service.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = {GatewayTestInitializer.class, AccountsProviderOutageTests.Provider.class})
@ExtendWith(RedisReachableFirst.class)
class AccountsProviderOutageTests {

    static final String COOKIE = "kc_access";

    static TestIdentityProvider provider;

    static class Provider implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            synchronized (AccountsProviderOutageTests.class) {
                if (provider == null) {
                    provider = new TestIdentityProvider();
                    provider.down(true);
                }
            }
            TestPropertyValues.of(
                            "waitroom.accounts.issuer=" + provider.issuer(),
                            "waitroom.accounts.audience=" + TestIdentityProvider.AUDIENCE,
                            "waitroom.accounts.cookie=" + COOKIE,
                            "waitroom.accounts.pseudonym-key=" + AccountsTests.randomKey())
                    .applyTo(context);
        }
    }

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    @Test
    void theProviderDownFailsClosedThenDiscoveryAndCachedKeysCarryOn() {
        String event = "acct-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        String path = "/events/" + event + "/queue";
        String subject = UUID.randomUUID().toString();

        // 1. nothing known about the provider, and it does not answer: fail closed for a bearer token; a cookie's
        // verdict goes to the queue-service (which refuses it with 503 for an ACCOUNT-scoped event, and lets a
        // BROWSER-scoped one go on), without an account
        Browser.Reply refused =
                new Browser(port).post(path, null, "Authorization", "Bearer " + provider.token(subject));
        refused.assertProblem(503, "unavailable");
        assertThat(refused.header("Retry-After")).hasValue("5");
        assertThat(upstreams.queue.countReceived(path)).isZero();
        Browser cookieOnly = new Browser(port);
        cookieOnly.setCookie(COOKIE, provider.token(subject), "/");
        cookieOnly.post(path, null);
        RecordedRequest verdict = upstreams.queue.lastReceived(path).orElseThrow();
        assertThat(verdict.header(Headers.ACCOUNT_PROBLEM)).hasValue("unavailable");
        assertThat(verdict.header(Headers.ACCOUNT)).isEmpty();
        assertThat(verdict.header("Cookie").orElse("")).doesNotContain(COOKIE);

        // 2. the provider answers: discovery, JWKS, join (a failed discovery is retried after 5 s)
        provider.down(false);
        Browser laptop = new Browser(port);
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(
                                laptop.post(path, null, "Authorization", "Bearer " + provider.token(subject))
                                        .status())
                        .isEqualTo(201));
        RecordedRequest first = upstreams.queue.lastReceived(path).orElseThrow();
        String account = first.header(Headers.ACCOUNT).orElseThrow();
        assertThat(account).matches("p1\\.[A-Za-z0-9_-]{43}").doesNotContain(subject);
        assertThat(first.header("Authorization"))
                .as("the token is not forwarded")
                .isEmpty();

        // the same person from another browser, an EC-signed token in the cookie: the same account id, no cookie
        Browser phone = new Browser(port);
        phone.setCookie(COOKIE, provider.ecToken(subject), "/");
        phone.setCookie("unrelated", "kept", "/");
        assertThat(phone.post(path, null).status()).isEqualTo(201);
        RecordedRequest second = upstreams.queue.lastReceived(path).orElseThrow();
        assertThat(second.header(Headers.ACCOUNT)).hasValue(account);
        assertThat(second.header("Cookie").orElse("")).doesNotContain(COOKIE);
        // a route forwarded as it is (leave) keeps the browser's other cookies; a batched join carries no cookie at all
        assertThat(phone.delete(path).status()).isEqualTo(200);
        assertThat(upstreams
                        .queue
                        .lastReceived(path)
                        .orElseThrow()
                        .header("Cookie")
                        .orElse(""))
                .doesNotContain(COOKIE)
                .contains("unrelated=kept");
        // another person: another id
        assertThat(new Browser(port)
                        .post(
                                path,
                                null,
                                "Authorization",
                                "Bearer " + provider.token(UUID.randomUUID().toString()))
                        .status())
                .isEqualTo(201);
        assertThat(upstreams.queue.lastReceived(path).orElseThrow().header(Headers.ACCOUNT))
                .isPresent()
                .isNotEqualTo(java.util.Optional.of(account));

        // 3. the provider goes down again: keys already fetched still verify new tokens
        provider.down(true);
        long before = upstreams.queue.countReceived(path);
        assertThat(new Browser(port)
                        .post(path, null, "Authorization", "Bearer " + provider.token(subject))
                        .status())
                .isEqualTo(201);
        assertThat(upstreams.queue.countReceived(path)).isEqualTo(before + 1);
        // a key it never fetched cannot be checked now: refused, and never forwarded
        Browser.Reply unknown =
                new Browser(port).post(path, null, "Authorization", "Bearer " + provider.unknownKey(subject));
        assertThat(unknown.status()).isIn(401, 503);
        assertThat(unknown.json().has("signInUrl"))
                .as("no sign-in URL configured here")
                .isFalse();
        assertThat(upstreams.queue.countReceived(path)).isEqualTo(before + 1);
        // a client cannot send a verdict of its own
        new Browser(port).post(path, null, Headers.ACCOUNT_PROBLEM, "invalid");
        assertThat(upstreams.queue.lastReceived(path).orElseThrow().header(Headers.ACCOUNT_PROBLEM))
                .isEmpty();
    }
}
