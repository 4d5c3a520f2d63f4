package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * The credential is checked on the path the router will see, whatever its spelling: as booking uses the kit, with the
 * internal credential on {@code /internal/**} only, so that a trick that escaped the check would reach a handler.
 */
@KitTest
@TestPropertySource(properties = "waitroom.web.internal-credential.paths=/internal/**")
class PathTests {

    @LocalServerPort
    int port;

    TestHttp http;

    @BeforeEach
    void setUp() {
        http = new TestHttp(port);
    }

    @Test
    void otherSpellingsOfAProtectedPathNeedTheCredentialToo() {
        HandlerCalls calls = new HandlerCalls();
        for (String target : List.of(
                "/internal/things/1",
                "/INTERNAL/things/1",
                "/Internal/things/1",
                "//internal/things/1",
                "/internal//things/1",
                "/internal;x=1/things/1",
                "/internal/things;v=2/1",
                "/%69nternal/things/1",
                "/internal/things/1/")) {
            http.rawGet(target, false).assertProblem(403, "internal-credential-required");
        }
        calls.assertNone();
    }

    @Test
    void pathsThatCouldBeReadTwoWaysAreRefused() {
        HandlerCalls calls = new HandlerCalls();
        for (String target : List.of(
                "/internal/../things/1",
                "/things/../internal/things/1",
                "/internal/things/..",
                "/internal/things/.",
                "/./internal/things/1",
                "/internal/%2e%2e/things/1",
                "/things/%2E%2E/internal/things/1",
                "/internal/.%2e/things/1",
                "/things/%2e/internal/things/1",
                "/internal%2fthings/1",
                "/internal%2Fthings%2F1",
                "/internal%5cthings/1",
                "/internal\\things/1",
                "/things/%252e%252e/internal/things/1",
                "/things/a%3Bb",
                "/things/%00",
                "/things/%zz",
                "/things/%c3%28")) {
            TestHttp.Response refused = http.rawGet(target, false);
            assertThat(refused.status()).as(target).isEqualTo(400);
            if (refused.header("Content-Type") != null
                    && refused.header("Content-Type").startsWith("application/problem")) {
                refused.assertProblem(400, "bad-path");
            }
            // the credential does not make an ambiguous path acceptable
            assertThat(http.rawGet(target, true).status()).as(target).isEqualTo(400);
        }
        calls.assertNone();
    }

    @Test
    void unprotectedPathsAndProtectedOnesWithTheCredentialAreServed() {
        assertThat(http.rawGet("/things/1", false).status()).isEqualTo(200);
        assertThat(http.rawGet("/things/1;x=1", false).status()).isEqualTo(200);
        assertThat(http.rawGet("/things/caf%C3%A9", false).json().get("id").asString())
                .isEqualTo("café");
        assertThat(http.rawGet("/things/a..b", false).json().get("id").asString())
                .isEqualTo("a..b");
        assertThat(http.rawGet("/internal/things/1", true).status()).isEqualTo(200);
        assertThat(http.rawGet("/internal;x=1/things/1", true).status()).isEqualTo(200);
    }
}
