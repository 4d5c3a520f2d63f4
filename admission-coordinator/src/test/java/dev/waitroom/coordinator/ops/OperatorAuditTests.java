package dev.waitroom.coordinator.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ops.OperatorTokens;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.RandomSecretsInitializer;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.testsupport.TestOperators;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Named operators on the coordinator's ops API, over real HTTP and PostgreSQL: each change audited under the name of
 * who made it, a viewer who reads the live view and changes nothing, credentials with a current and a previous value,
 * and the ops check on the path the router sees. Tokens are random for each run.
 */
@CoordinatorTest
class OperatorAuditTests {

    static final String ALICE = OperatorTokens.generate();

    static final String BOB = OperatorTokens.generate();

    static final String BOB_PREVIOUS = OperatorTokens.generate();

    static final String VIC = OperatorTokens.generate();

    @DynamicPropertySource
    static void operators(DynamicPropertyRegistry registry) {
        TestOperators.create()
                .admin("alice", ALICE)
                .admin("bob@example.org", BOB, BOB_PREVIOUS)
                .viewer("vic", VIC)
                .register(registry);
    }

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    String eventId;

    @BeforeEach
    void setUp() {
        this.eventId = Scenario.eventId("operators");
    }

    private Http as(String token) {
        return this.scenario.http().header(Headers.AUTHORIZATION, Headers.BEARER_PREFIX + token);
    }

    private String path(String suffix) {
        return "/admin/events/" + this.eventId + suffix;
    }

    private void create(Http operator) {
        String body = Http.json(Map.of(
                "eventId", this.eventId, "name", "Operators", "maxActiveSessions", 4, "maxAdmissionsPerSecond", 10));
        Http.Response created = operator.post("/admin/events", body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    /** The audit as PostgreSQL holds it: "kind to actor" per change, in order. */
    private List<String> audit() {
        return this.jdbc
                .sql("select kind, to_value, actor from mode_changes where event_id = :id order by id")
                .param("id", this.eventId)
                .query((rs, n) -> rs.getString("kind") + " " + rs.getString("to_value") + " " + rs.getString("actor"))
                .list();
    }

    @Test
    void twoOperatorsActionsAreAuditedUnderTheirNames() {
        Http alice = as(ALICE);
        Http bob = as(BOB);
        create(alice);
        assertThat(alice.post(path("/open"), "{\"reason\":\"doors open\"}").status())
                .isEqualTo(200);
        assertThat(alice.post(path("/pause"), "{\"reason\":\"payment incident\"}")
                        .status())
                .isEqualTo(200);
        assertThat(bob.post(path("/resume"), "{\"reason\":\"resolved\"}").status())
                .isEqualTo(200);
        assertThat(bob.send("PUT", path("/announcement"), "{\"text\":\"Category A sold out\"}")
                        .status())
                .isEqualTo(200);
        assertThat(bob.send("PATCH", path(""), "{\"maxActiveSessions\":6}").status())
                .isEqualTo(200);
        assertThat(as(BOB_PREVIOUS)
                        .post(path("/bypass"), "{\"reason\":\"load test\"}")
                        .status())
                .as("bob's previous token still names bob")
                .isEqualTo(200);

        assertThat(audit())
                .containsExactly(
                        "CONFIG created alice",
                        "PHASE OPEN alice",
                        "PHASE DRAWN coordinator",
                        "MODE PAUSED alice",
                        "MODE QUEUEING bob@example.org",
                        "ANNOUNCEMENT set bob@example.org",
                        "CONFIG updated bob@example.org",
                        "MODE BYPASS bob@example.org");
        assertThat(alice.get(path("")).json().path("live").path("modeChanges").toString())
                .contains("\"actor\":\"alice\"", "\"actor\":\"bob@example.org\"")
                .doesNotContain("\"actor\":\"ops\"");
    }

    @Test
    void aViewerReadsTheLiveViewAndIsRefusedAModeChange() {
        create(as(ALICE));
        Http vic = as(VIC);

        Http.Response view = vic.get(path(""));
        assertThat(view.status()).as(view.body()).isEqualTo(200);
        assertThat(view.json().path("live").path("mode").asString()).isEqualTo("QUEUEING");

        Http.Response pause = vic.post(path("/pause"), "{\"reason\":\"just looking\"}");
        assertThat(pause.status()).isEqualTo(403);
        assertThat(pause.contentType()).startsWith("application/problem+json");
        assertThat(pause.problemType()).endsWith("/operator-forbidden");
        for (Http.Response write : List.of(
                vic.post("/admin/events", Http.json(Map.of("eventId", Scenario.eventId("vic")))),
                vic.send("PATCH", path(""), "{\"maxActiveSessions\":100}"),
                vic.send("PUT", path("/announcement"), "{\"text\":\"hello\"}"),
                vic.send("DELETE", path("/bypass"), "{\"reason\":\"x\"}"),
                vic.post("/admin/keys/rotate", null))) {
            assertThat(write.status()).isEqualTo(403);
            assertThat(write.problemType()).endsWith("/operator-forbidden");
        }

        JsonNode after = vic.get(path("")).json();
        assertThat(after.path("mode").asString()).isEqualTo("QUEUEING");
        assertThat(after.path("maxActiveSessions").asInt()).isEqualTo(4);
        assertThat(audit()).containsExactly("CONFIG created alice");
    }

    @Test
    void aPreviousCredentialIsAcceptedAndAThirdIsRefused() {
        create(as(BOB_PREVIOUS));
        assertThat(audit()).containsExactly("CONFIG created bob@example.org");

        Http.Response third = as(OperatorTokens.generate()).get(path(""));
        assertThat(third.status()).isEqualTo(401);
        assertThat(third.problemType()).endsWith("/ops-credential-required");
        assertThat(as(OperatorTokens.hash(BOB)).get(path("")).status())
                .as("a configured hash is not a credential")
                .isEqualTo(401);

        Http previousInternal = new Http(this.scenario.port())
                .header(Headers.INTERNAL, RandomSecretsInitializer.GATEWAY_PREVIOUS.credential())
                .header(Headers.AUTHORIZATION, Headers.BEARER_PREFIX + ALICE);
        assertThat(previousInternal.get(path("")).status()).isEqualTo(200);
        Http thirdInternal = new Http(this.scenario.port())
                .header(Headers.INTERNAL, ServiceCredentials.generate("gateway").credential())
                .header(Headers.AUTHORIZATION, Headers.BEARER_PREFIX + ALICE);
        Http.Response refused = thirdInternal.get(path(""));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.problemType()).endsWith("/internal-credential-required");
    }

    @Test
    void otherSpellingsOfTheOpsPathsDoNotPassWithOnlyTheInternalCredential() {
        create(as(ALICE));
        String id = this.eventId;
        List<String> targets = List.of(
                "/admin;x/events/" + id,
                "/admin;x/events/" + id + "/pause",
                "/%61dmin/events/" + id,
                "/%61dmin/events/" + id + "/pause",
                "/%41DMIN/events/" + id + "/pause",
                "/ADMIN/events/" + id + "/pause",
                "//admin/events/" + id + "/pause",
                "/admin//events/" + id + "/pause",
                "/admin/events;x=1/" + id + "/pause",
                "/admin/./events/" + id + "/pause",
                "/x/../admin/events/" + id + "/pause",
                "/admin%2fevents/" + id + "/pause",
                "/admin/events/" + id + "/pause;x=1");
        List<String> passed = new ArrayList<>();
        for (String target : targets) {
            for (String method : List.of("GET", "POST")) {
                int status = rawStatus(method, target);
                // 403: the gateway's rules match only as written (caller-not-allowed)
                if (status != 400 && status != 401 && status != 403) {
                    passed.add(method + " " + target + " -> " + status);
                }
            }
        }
        assertThat(passed).as("answered other than 400 or 401").isEmpty();
        assertThat(as(ALICE).get(path("")).json().path("mode").asString()).isEqualTo("QUEUEING");
        assertThat(audit()).containsExactly("CONFIG created alice");
    }

    /** The status of a request sent byte for byte as written, with the internal credential and no ops token. */
    private int rawStatus(String method, String target) {
        String body = "{\"reason\":\"path trick\"}";
        String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + Headers.INTERNAL + ": " + RandomSecretsInitializer.GATEWAY.credential() + "\r\n"
                + ("POST".equals(method)
                        ? "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body
                        : "\r\n");
        try (Socket socket = new Socket("127.0.0.1", this.scenario.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
                line.write(b);
            }
            return Integer.parseInt(line.toString(StandardCharsets.US_ASCII).split(" ")[1]);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
