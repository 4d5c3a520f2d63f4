package dev.waitroom.gateway.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.GatewayApplication;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.QueueServiceProcessTest;
import dev.waitroom.gateway.testing.RedisReachableFirst;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.AllAtOnce;
import dev.waitroom.testsupport.QueueServiceProcess;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.VisitorCookieCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 18 part 2 end to end at the edge: the real gateway (real HTTP, real Redis) in front of the real queue-service
 * (a child JVM on the same Redis), an OpenID provider of the test's own ({@link TestIdentityProvider}: a real JWKS over
 * HTTP, tokens signed with nimbus). A valid token joins; the same account from another browser (another visitor
 * cookie, another token, by header or by cookie) sees the same place, also at the edge; two accounts never share one;
 * browsers of one account joining at once make one entry; every bad token is 401 {@code account-token-invalid} and
 * writes nothing; no token on an ACCOUNT-scoped event is 401 {@code sign-in-required} with the sign-in URL; an {@code
 * X-Waitroom-Account} from outside counts for nothing.
 */
@QueueServiceProcessTest
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = {GatewayTestInitializer.class, AccountsTests.Provider.class})
@ExtendWith(RedisReachableFirst.class)
class AccountsTests {

    static final String SIGN_IN = "https://shop.example/sign-in?next=%2Fevents";

    static final String COOKIE = "site_session";

    static final JsonMapper JSON = JsonMapper.builder().build();

    static TestIdentityProvider provider;

    static QueueServiceProcess queue;

    /** Starts the provider and the queue-service once, and points the gateway at both. */
    static class Provider implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            synchronized (AccountsTests.class) {
                if (provider == null) {
                    provider = new TestIdentityProvider();
                    queue = QueueServiceProcess.start(
                            "spring.data.redis.host=" + RealStores.redisHost(),
                            "spring.data.redis.port=" + RealStores.redisPort(),
                            // the gateway's credential (by its hash), which the stub coordinator checks too
                            StubUpstreams.GATEWAY.callerProperty(),
                            "waitroom.accounts.sign-in-url=" + SIGN_IN);
                }
            }
            TestPropertyValues.of(
                            "waitroom.services.queue-url=" + queue.baseUrl(),
                            "waitroom.security.ticket-key=" + queue.ticketKey(),
                            "waitroom.accounts.issuer=" + provider.issuer(),
                            "waitroom.accounts.audience=" + TestIdentityProvider.AUDIENCE,
                            "waitroom.accounts.jwks-uri=" + provider.jwksUri(),
                            "waitroom.accounts.cookie=" + COOKIE,
                            "waitroom.accounts.sign-in-url=" + SIGN_IN,
                            "waitroom.accounts.pseudonym-key=" + randomKey())
                    .applyTo(context);
        }
    }

    @LocalServerPort
    int port;

    @Test
    void aValidTokenJoinsAndTheSamePersonOnAnotherBrowserSeesTheSamePlace() {
        String event = accountEvent();
        String subject = subject();
        Browser laptop = new Browser(port);
        Browser phone = new Browser(port);

        Browser.Reply joined =
                laptop.post(queuePath(event), null, "Authorization", "Bearer " + provider.token(subject));
        // another browser: another visitor cookie, another token of the same person (EC-signed), sent as the cookie
        phone.setCookie(COOKIE, provider.ecToken(subject), "/");
        Browser.Reply again = phone.post(queuePath(event), null);

        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        assertThat(again.header("X-Waitroom-Visitor"))
                .as("the bound visitor id is the gateway's only")
                .isEmpty();
        String receipt = joined.json().get("receipt").asString();
        assertThat(again.json().get("receipt").asString()).isEqualTo(receipt);
        assertThat(laptop.cookie("wr_vid")).isNotEqualTo(phone.cookie("wr_vid"));
        assertThat(counts(event).get("joins").asLong()).isEqualTo(1);

        // status: each browser holds a queue ticket of the one entry; the edge answers both with the same place, and
        // once the liveness batch has told the edge that the entry now belongs to the phone's visitor id, the
        // laptop's polls go to the queue-service, which finds the place by the account: still the same one
        Browser.Reply phoneStatus = phone.get(statusPath(event));
        assertThat(phoneStatus.status()).isEqualTo(200);
        assertThat(phoneStatus.json().get("receipt").asString()).isEqualTo(receipt);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(700))
                .untilAsserted(() -> {
                    Browser.Reply laptopStatus =
                            laptop.get(statusPath(event), "Authorization", "Bearer " + provider.token(subject));
                    assertThat(laptopStatus.status())
                            .as(laptopStatus.toString())
                            .isEqualTo(200);
                    assertThat(laptopStatus.header("X-Waitroom-Status-Source")).hasValue("queue");
                    assertThat(laptopStatus.json().get("receipt").asString()).isEqualTo(receipt);
                    assertThat(laptopStatus.json().get("state").asString()).isEqualTo("WAITING");
                });
        assertThat(counts(event).get("waiting").asLong()).isEqualTo(1);
    }

    @Test
    void aClaimFromAnotherBrowserOfTheAccountIsMadeUnderTheVisitorIdTheOfferWentTo() {
        String event = accountEvent();
        String subject = subject();
        Browser laptop = new Browser(port);
        Browser phone = new Browser(port);
        Browser stranger = new Browser(port);
        Browser.Reply joined =
                laptop.post(queuePath(event), null, "Authorization", "Bearer " + provider.token(subject));
        phone.setCookie(COOKIE, provider.token(subject), "/");
        assertThat(phone.post(queuePath(event), null).status()).isEqualTo(200);
        stranger.post(queuePath(event), null, "Authorization", "Bearer " + provider.token(subject()));
        String laptopVisitor = visitorOf(laptop);
        String phoneVisitor = visitorOf(phone);
        assertThat(phoneVisitor).isNotEqualTo(laptopVisitor);
        String receipt = joined.json().get("receipt").asString();
        // the coordinator offers the entry to the visitor id the candidates name: the laptop's, although the phone
        // joined last
        JsonNode candidates = JSON.readTree(internal("GET", "/internal/events/" + event + "/candidates?limit=10", null)
                .body());
        List<String> offeredTo = new ArrayList<>();
        candidates.get("entries").forEach(c -> offeredTo.add(c.get("visitor").asString()));
        assertThat(offeredTo).contains(laptopVisitor).doesNotContain(phoneVisitor);
        HttpResponse<String> offered = internal(
                "POST",
                "/internal/events/" + event + "/offers",
                "{\"offers\":[{\"entryId\":\"" + receipt + "\",\"grantId\":\"g-" + receipt
                        + "\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}]}");
        assertThat(offered.body()).contains("\"applied\":true");

        phone.post(claimPath(event), null);
        RecordedRequest phoneClaim = lastClaim(event);
        stranger.post(claimPath(event), null, "Authorization", "Bearer " + provider.token(subject()));
        RecordedRequest strangerClaim = lastClaim(event);

        assertThat(phoneClaim.header("X-Waitroom-Visitor"))
                .as("the phone claims the laptop's offer: the same person")
                .hasValue(laptopVisitor);
        assertThat(phoneClaim.header("X-Waitroom-Claiming-Visitor"))
                .as("and the session is bound to the phone's own visitor id, so its own cookie shops")
                .hasValue(phoneVisitor);
        assertThat(phoneClaim.header("X-Waitroom-Account")).isEmpty();
        assertThat(phoneClaim.header("Cookie").orElse("")).doesNotContain(COOKIE);
        assertThat(strangerClaim.header("X-Waitroom-Visitor"))
                .as("another account claims under its own id only")
                .hasValue(visitorOf(stranger));

        // once claimed (the queue is told ACTIVE), the session belongs to the browser that claimed: a claim is made
        // under the claiming browser's own id again, so the session's own repeated claim stays its own
        HttpResponse<String> active = internal(
                "POST",
                "/internal/events/" + event + "/entries/" + receipt + "/transition",
                "{\"to\":\"ACTIVE\",\"grantId\":\"g-" + receipt + "\"}");
        assertThat(active.statusCode()).as(active.body()).isEqualTo(200);
        phone.post(claimPath(event), null);
        assertThat(lastClaim(event).header("X-Waitroom-Visitor")).hasValue(phoneVisitor);
        assertThat(lastClaim(event).header("X-Waitroom-Claiming-Visitor")).isEmpty();
    }

    @Test
    void twoAccountsNeverShareAPlaceEvenInOneBrowser() {
        String event = accountEvent();
        Browser shared = new Browser(port);

        Browser.Reply first =
                shared.post(queuePath(event), null, "Authorization", "Bearer " + provider.token(subject()));
        Browser.Reply second =
                shared.post(queuePath(event), null, "Authorization", "Bearer " + provider.token(subject()));

        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(second.status()).as(second.toString()).isEqualTo(201);
        assertThat(second.json().get("receipt").asString())
                .isNotEqualTo(first.json().get("receipt").asString());
        assertThat(counts(event).get("waiting").asLong()).isEqualTo(2);
    }

    @Test
    void browsersOfOneAccountJoiningAtOnceMakeExactlyOneEntry() throws Exception {
        String event = accountEvent();
        String subject = subject();
        int browsers = 24;
        List<Browser> all = new ArrayList<>();
        for (int i = 0; i < browsers; i++) {
            all.add(new Browser(port));
        }
        // each browser brings its own token of the same person, as after signing in on each
        List<String> tokens = all.stream().map(b -> provider.token(subject)).toList();

        List<Browser.Reply> replies = AllAtOnce.each(
                browsers, i -> all.get(i).post(queuePath(event), null, "Authorization", "Bearer " + tokens.get(i)));

        assertThat(replies)
                .allSatisfy(r -> assertThat(r.status()).as(r.toString()).isIn(200, 201));
        assertThat(replies.stream().filter(r -> r.status() == 201)).hasSize(1);
        assertThat(replies.stream().map(r -> r.json().get("receipt").asString()).distinct())
                .hasSize(1);
        JsonNode counts = counts(event);
        assertThat(counts.get("joins").asLong()).isEqualTo(1);
        assertThat(counts.get("waiting").asLong()).isEqualTo(1);
    }

    @Test
    void everyBadTokenIsRefusedAndWritesNothing() {
        String event = accountEvent();
        String subject = subject();
        Instant now = Instant.now();
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("forged signature", provider.forged(subject));
        bad.put(
                "wrong issuer",
                provider.signed(provider.claims(subject)
                        .issuer("https://elsewhere.example/realms/test")
                        .build()));
        bad.put(
                "wrong audience",
                provider.signed(
                        provider.claims(subject).audience("another-client").build()));
        bad.put(
                "expired",
                provider.signed(provider.claims(subject)
                        .expirationTime(Date.from(now.minusSeconds(120)))
                        .build()));
        bad.put(
                "not yet valid",
                provider.signed(provider.claims(subject)
                        .notBeforeTime(Date.from(now.plusSeconds(600)))
                        .build()));
        bad.put(
                "no subject",
                provider.signed(provider.claims(subject).subject(null).build()));
        bad.put(
                "no expiry",
                provider.signed(provider.claims(subject).expirationTime(null).build()));
        bad.put("alg none", provider.unsigned(subject));
        bad.put("HMAC with the public key", provider.hmacWithThePublicKey(subject));
        bad.put("unknown kid", provider.unknownKey(subject));
        bad.put("garbage", "not-a-token");
        bad.put("three garbage parts", "eyJhbGciOiJSUzI1NiJ9.garbage.garbage");

        bad.forEach((what, token) -> {
            Browser.Reply byHeader = new Browser(port).post(queuePath(event), null, "Authorization", "Bearer " + token);
            Browser cookieBrowser = new Browser(port);
            cookieBrowser.setCookie(COOKIE, token, "/");
            Browser.Reply byCookie = cookieBrowser.post(queuePath(event), null);
            // a bearer token is refused by the gateway; a cookie's verdict goes to the queue-service, which refuses it
            // because this event is ACCOUNT-scoped (a stale cookie must not stop a BROWSER-scoped one)
            for (Browser.Reply reply : List.of(byHeader, byCookie)) {
                reply.assertProblem(401, "account-token-invalid");
                assertThat(reply.json().get("signInUrl").asString()).isEqualTo(SIGN_IN);
                assertThat(reply.body()).as(what).doesNotContain(subject);
            }
            assertThat(byHeader.header("WWW-Authenticate")).as(what).hasValue("Bearer error=\"invalid_token\"");
        });
        // a token in the status poll and the leave is checked the same way
        new Browser(port)
                .get(statusPath(event), "Authorization", "Bearer " + provider.forged(subject))
                .assertProblem(401, "account-token-invalid");
        new Browser(port)
                .delete(queuePath(event), "Authorization", "Bearer " + provider.unsigned(subject))
                .assertProblem(401, "account-token-invalid");

        JsonNode counts = counts(event);
        assertThat(counts.get("joins").asLong()).isZero();
        assertThat(counts.get("waiting").asLong()).isZero();
    }

    @Test
    void withoutATokenAnAccountEventAsksToSignInAndAnAccountHeaderFromOutsideCountsForNothing() {
        String event = accountEvent();
        String someoneElse = "p1." + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);

        Browser.Reply plain = new Browser(port).post(queuePath(event), null);
        Browser.Reply claimed = new Browser(port).post(queuePath(event), null, "X-Waitroom-Account", someoneElse);

        for (Browser.Reply reply : List.of(plain, claimed)) {
            reply.assertProblem(401, "sign-in-required");
            assertThat(reply.json().get("signInUrl").asString()).isEqualTo(SIGN_IN);
        }
        assertThat(counts(event).get("joins").asLong()).isZero();
    }

    @Test
    void anAccountHeaderBesideAValidTokenIsReplacedByTheTokensAccount() {
        String event = accountEvent();
        String victim = subject();
        String attacker = subject();
        Browser.Reply victimJoined =
                new Browser(port).post(queuePath(event), null, "Authorization", "Bearer " + provider.token(victim));
        // the attacker copies whatever account id it could learn and sends it beside its own valid token
        String guessed = "p1." + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);

        Browser.Reply attackerJoined = new Browser(port)
                .post(
                        queuePath(event),
                        null,
                        "Authorization",
                        "Bearer " + provider.token(attacker),
                        "X-Waitroom-Account",
                        guessed);

        assertThat(victimJoined.status()).isEqualTo(201);
        assertThat(attackerJoined.status()).as("the attacker's own new place").isEqualTo(201);
        assertThat(attackerJoined.json().get("receipt").asString())
                .isNotEqualTo(victimJoined.json().get("receipt").asString());
    }

    @Test
    void aStaleSignInCookieDoesNotStopABrowserScopedEventButABadBearerTokenIsRefused() {
        String event = event("BROWSER");
        String expired = provider.signed(provider.claims(subject())
                .expirationTime(Date.from(Instant.now().minusSeconds(600)))
                .build());
        Browser withCookie = new Browser(port);
        withCookie.setCookie(COOKIE, expired, "/");

        Browser.Reply joined = withCookie.post(queuePath(event), null);
        Browser.Reply bearer = new Browser(port).post(queuePath(event), null, "Authorization", "Bearer " + expired);

        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        bearer.assertProblem(401, "account-token-invalid");
        assertThat(counts(event).get("joins").asLong()).isEqualTo(1);
    }

    @Test
    void aBrowserScopedEventIgnoresTheAccount() {
        String event = event("BROWSER");
        String subject = subject();

        Browser.Reply one =
                new Browser(port).post(queuePath(event), null, "Authorization", "Bearer " + provider.token(subject));
        Browser.Reply two =
                new Browser(port).post(queuePath(event), null, "Authorization", "Bearer " + provider.token(subject));
        Browser.Reply none = new Browser(port).post(queuePath(event), null);

        assertThat(List.of(one.status(), two.status(), none.status())).containsExactly(201, 201, 201);
    }

    // --- helpers

    private static String accountEvent() {
        return event("ACCOUNT");
    }

    private static String event(String scope) {
        String event = "acct-" + UUID.randomUUID().toString().substring(0, 12);
        String body = "{\"phase\":\"OPEN\",\"mode\":\"QUEUEING\",\"saleGeneration\":1,\"admissionRatePerSecond\":10,"
                + "\"offerTtlSeconds\":60,\"identityScope\":\"" + scope + "\"}";
        HttpResponse<String> put = internal("PUT", "/internal/events/" + event, body);
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        return event;
    }

    private static JsonNode counts(String event) {
        return JSON.readTree(
                internal("GET", "/internal/events/" + event + "/counts", null).body());
    }

    private static HttpResponse<String> internal(String method, String path, String body) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(queue.baseUrl() + path))
                    .header("X-Waitroom-Internal", queue.coordinatorCredential())
                    .header("Content-Type", "application/json")
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(body))
                    .timeout(Duration.ofSeconds(10))
                    .build();
            return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String claimPath(String event) {
        return "/events/" + event + "/admission/claim";
    }

    private static RecordedRequest lastClaim(String event) {
        return StubUpstreams.get().coordinator.lastReceived(claimPath(event)).orElseThrow();
    }

    /** The visitor id a browser's visitor cookie carries. */
    private static String visitorOf(Browser browser) {
        return VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY))
                .decode(browser.cookie("wr_vid").orElseThrow())
                .value();
    }

    private static String queuePath(String event) {
        return "/events/" + event + "/queue";
    }

    private static String statusPath(String event) {
        return "/events/" + event + "/queue/status";
    }

    private static String subject() {
        return UUID.randomUUID().toString();
    }

    static String randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}
