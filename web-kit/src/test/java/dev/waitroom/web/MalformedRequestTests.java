package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue #28, finding 9: a request target the server cannot decode was a 400 without a problem body (Tomcat refuses it
 * before Spring sees it, or Spring fails reading the parameters). Every such answer is now the catalogue's problem,
 * for a malformed query ({@code malformed-request}) and for malformed percent-encoding in the path ({@code bad-path}).
 * Targets are sent byte for byte on a raw socket.
 */
@KitTest
class MalformedRequestTests {

    @LocalServerPort
    int port;

    TestHttp http;

    @BeforeEach
    void setUp() {
        http = new TestHttp(port);
    }

    @Test
    void aMalformedQueryIsAProblem() {
        HandlerCalls calls = new HandlerCalls();
        for (String target : List.of(
                "/things/1?x=%%%",
                "/things/1?x=%",
                "/things/1?x=%4",
                "/things/1?x=%zz",
                "/param?n=%%%",
                "/param?n=1&x=%c3%28",
                "/things/1?a=b|c",
                "/things/1?a={b}")) {
            http.rawGet(target, true).assertProblem(400, "malformed-request");
        }
        calls.assertNone();
    }

    @Test
    void malformedPercentEncodingInThePathIsAProblem() {
        HandlerCalls calls = new HandlerCalls();
        for (String target : List.of("/things/%zz", "/things/%", "/things/%4", "/things/%%", "/things/a|b")) {
            http.rawGet(target, true).assertProblem(400, "bad-path");
        }
        calls.assertNone();
    }

    @Test
    void wellFormedEscapesStillReachTheHandler() {
        assertThat(http.rawGet("/things/caf%C3%A9?x=%41", true).json().get("id").asString())
                .isEqualTo("café");
    }
}
