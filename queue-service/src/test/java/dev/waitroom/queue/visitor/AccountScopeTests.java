package dev.waitroom.queue.visitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.queue.QueueClient;
import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.queue.QueueServiceTest;
import dev.waitroom.queue.TestSecrets;
import dev.waitroom.testsupport.AllAtOnce;
import dev.waitroom.tokens.VisitorId;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Issue 18 part 2 in the queue-service (docs/integration/accounts.md): an ACCOUNT-scoped event keys its entry on the gateway's
 * verified account. Without one, join, status and leave are 401 {@code sign-in-required} (with the configured {@code
 * signInUrl}) and write nothing; many browsers of one account joining at once get exactly one entry; two accounts never
 * share one. Accounts here have the gateway's pseudonym shape ({@code p1.} and 43 base64url characters).
 */
@QueueServiceTest
@TestPropertySource(properties = "waitroom.accounts.sign-in-url=https://shop.example/sign-in?return=queue")
class AccountScopeTests {

    private final QueueClient client;

    AccountScopeTests(QueueClient client) {
        this.client = client;
    }

    @Test
    void withoutAnAccountAnAccountScopedEventAnswersSignInRequiredAndWritesNothing() {
        String event = accountEvent();
        String visitor = VisitorId.random().value();

        Reply join = client.join(event, visitor);
        Reply status = client.status(event, visitor);
        Reply leave = client.leave(event, visitor);

        for (Reply r : List.of(join, status, leave)) {
            assertThat(r.status()).as(r.body()).isEqualTo(401);
            assertThat(r.header("Content-Type")).startsWith("application/problem+json");
            JsonNode problem = r.json();
            assertThat(problem.get("type").asString()).endsWith("/sign-in-required");
            assertThat(problem.get("signInUrl").asString()).isEqualTo("https://shop.example/sign-in?return=queue");
            assertThat(r.header(Headers.TICKET)).isNull();
        }
        JsonNode counts = client.counts(event);
        assertThat(counts.get("joins").asLong()).isZero();
        assertThat(counts.get("waiting").asLong()).isZero();
    }

    @Test
    void aSignInCookieTheGatewayCouldNotAcceptIsAnsweredOnlyForAnAccountScopedEvent() {
        String accountEvent = accountEvent();
        String browserEvent = client.newEvent("browser", "OPEN");

        Reply invalid = withProblem("POST", accountEvent, "invalid");
        Reply unavailable = withProblem("POST", accountEvent, "unavailable");
        Reply statusInvalid = withProblem("GET", accountEvent, "invalid");
        Reply browser = withProblem("POST", browserEvent, "invalid");

        assertThat(invalid.status()).as(invalid.body()).isEqualTo(401);
        assertThat(invalid.json().get("type").asString()).endsWith("/account-token-invalid");
        assertThat(invalid.json().get("signInUrl").asString()).isEqualTo("https://shop.example/sign-in?return=queue");
        assertThat(statusInvalid.json().get("type").asString()).endsWith("/account-token-invalid");
        assertThat(unavailable.status()).as(unavailable.body()).isEqualTo(503);
        assertThat(unavailable.json().get("type").asString()).endsWith("/unavailable");
        assertThat(unavailable.header("Retry-After")).isEqualTo("5");
        assertThat(client.counts(accountEvent).get("joins").asLong()).isZero();
        assertThat(browser.status())
                .as("a stale cookie does not stop a BROWSER-scoped event")
                .isEqualTo(201);
    }

    private Reply withProblem(String method, String event, String problem) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put(Headers.INTERNAL, TestSecrets.GATEWAY.credential());
        h.put(Headers.VISITOR, VisitorId.random().value());
        h.put(Headers.ACCOUNT_PROBLEM, problem);
        String path = method.equals("GET") ? "/queue/status" : "/queue";
        return client.send(method, "/events/" + event + path, null, h);
    }

    @Test
    void browserScopedEventsStillPlaceVisitorsWithoutAnAccount() {
        String event = client.newEvent("browser", "OPEN");
        assertThat(client.join(event, VisitorId.random().value()).status()).isEqualTo(201);
    }

    @Test
    void anUnknownEventIsStillUnknownNotSignInRequired() {
        Reply r = client.join(
                QueueClient.newEventId("nowhere"), VisitorId.random().value());
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.json().get("type").asString()).endsWith("/unknown-event");
    }

    @Test
    void manyBrowsersOfOneAccountJoiningAtOnceGetExactlyOneEntry() throws Exception {
        String event = accountEvent();
        String account = pseudonym();
        int browsers = 48;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < browsers; i++) {
            ids.add(VisitorId.random().value());
        }
        List<Reply> replies = AllAtOnce.each(browsers, i -> join(event, ids.get(i), account));

        assertThat(replies.stream().filter(r -> r.status() == 201)).hasSize(1);
        // Racing first joins reach join.lua together: the losers find the place and never rebind it.
        String creator = ids.get(replies.indexOf(
                replies.stream().filter(r -> r.status() == 201).findFirst().orElseThrow()));
        assertThat(client.candidates(event, 10))
                .singleElement()
                .satisfies(c -> assertThat(c.get("visitor").asString()).isEqualTo(creator));
        assertThat(replies.stream().filter(r -> r.status() == 200)).hasSize(browsers - 1);
        assertThat(replies.stream().map(Reply::receipt).distinct()).hasSize(1);
        JsonNode counts = client.counts(event);
        assertThat(counts.get("joins").asLong()).isEqualTo(1);
        assertThat(counts.get("waiting").asLong()).isEqualTo(1);
    }

    @Test
    void twoAccountsNeverShareAPlaceEvenFromOneBrowser() {
        String event = accountEvent();
        String browser = VisitorId.random().value();
        Reply first = join(event, browser, pseudonym());
        Reply second = join(event, browser, pseudonym());

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.receipt()).isNotEqualTo(first.receipt());
        assertThat(client.counts(event).get("waiting").asLong()).isEqualTo(2);
    }

    @Test
    void anotherBrowserOfTheAccountSeesAndLeavesTheSamePlace() {
        String event = accountEvent();
        String account = pseudonym();
        Reply laptop = join(event, VisitorId.random().value(), account);
        String phone = VisitorId.random().value();

        Reply status = as("GET", event, "/queue/status", phone, account);
        Reply left = as("DELETE", event, "/queue", phone, account);

        assertThat(status.status()).isEqualTo(200);
        assertThat(status.receipt()).isEqualTo(laptop.receipt());
        assertThat(left.status()).isEqualTo(200);
        assertThat(left.json().get("state").asString()).isEqualTo("LEFT");
        assertThat(client.counts(event).get("waiting").asLong()).isZero();
    }

    @Test
    void anotherBrowserFindsThePlaceWithoutMovingItAndLearnsTheVisitorItsOfferIsMadeTo() {
        String event = accountEvent();
        String account = pseudonym();
        String laptop = VisitorId.random().value();
        String phone = VisitorId.random().value();
        String tablet = VisitorId.random().value();
        Reply joined = join(event, laptop, account);

        Reply again = join(event, phone, account);

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.receipt()).isEqualTo(joined.receipt());
        assertThat(again.header(Headers.VISITOR))
                .as("the visitor the place is bound to")
                .isEqualTo(laptop);
        assertThat(again.header(Headers.TICKET)).as("a ticket of the one entry").isNotNull();
        List<JsonNode> candidates = client.candidates(event, 10);
        assertThat(candidates).hasSize(1);
        assertThat(candidates.get(0).get("visitor").asString())
                .as("the offer goes to the visitor bound first, whichever browser joined last")
                .isEqualTo(laptop);

        assertThat(client.offer(event, joined.receipt(), "g-" + joined.receipt())
                        .get("applied")
                        .asBoolean())
                .isTrue();
        Reply late = join(event, tablet, account);
        Reply phoneStatus = as("GET", event, "/queue/status", phone, account);

        assertThat(late.status()).isEqualTo(200);
        assertThat(late.json().get("state").asString()).isEqualTo("OFFERED");
        assertThat(late.header(Headers.VISITOR)).isEqualTo(laptop);
        assertThat(phoneStatus.json().get("state").asString()).isEqualTo("OFFERED");
        assertThat(phoneStatus.header(Headers.VISITOR))
                .as("the gateway claims under this id for any browser of the account")
                .isEqualTo(laptop);
        assertThat(client.counts(event).get("joins").asLong()).isEqualTo(1);
    }

    @Test
    void aBrowserWithoutAnAccountIsNeverToldAVisitorId() {
        String event = client.newEvent("browser", "OPEN");
        String visitor = VisitorId.random().value();
        assertThat(client.join(event, visitor).header(Headers.VISITOR)).isNull();
        assertThat(client.status(event, visitor).header(Headers.VISITOR)).isNull();
    }

    private String accountEvent() {
        String event = QueueClient.newEventId("accounts");
        Reply put = client.putEvent(event, "OPEN", "\"identityScope\":\"ACCOUNT\"");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        return event;
    }

    private Reply join(String event, String visitor, String account) {
        return as("POST", event, "/queue", visitor, account);
    }

    private Reply as(String method, String event, String path, String visitor, String account) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put(Headers.INTERNAL, TestSecrets.GATEWAY.credential());
        h.put(Headers.VISITOR, visitor);
        h.put(Headers.ACCOUNT, account);
        return client.send(method, "/events/" + event + path, null, h);
    }

    /** An account id of the gateway's shape: {@code p1.} and the base64url of 32 bytes. */
    private static String pseudonym() {
        byte[] mac = new byte[32];
        ThreadLocalRandom.current().nextBytes(mac);
        return "p1." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
    }
}
