package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestPathsTests {

    @Test
    void aPathInNormalFormIsReturnedAsItIs() {
        for (String path : new String[] {"/events/e-1/queue", "/", "/a/b/", "/events/Bad..Id/x", "/a/.hidden/..x"}) {
            assertThat(RequestPaths.normalise(path)).isSameAs(path);
        }
        assertThat(RequestPaths.normalise("")).isEqualTo("/");
    }

    @Test
    void escapesParametersAndEmptySegmentsAreNormalised() {
        Map<String, String> normalised = Map.of(
                "//internal/x", "/internal/x",
                "/internal//x//", "/internal/x/",
                "/internal;x=1/x", "/internal/x",
                "/;x=1/internal/x;jsessionid=2", "/internal/x",
                "/%69nternal/x", "/internal/x",
                "/events/bad%7Bid%7D", "/events/bad{id}",
                "/events/caf%C3%A9", "/events/café",
                "/events/bad%20event", "/events/bad event");
        normalised.forEach(
                (raw, path) -> assertThat(RequestPaths.normalise(raw)).as(raw).isEqualTo(path));
    }

    @Test
    void pathsThatCouldBeReadTwoWaysAreRefused() {
        for (String ambiguous : new String[] {
            "/internal/../x",
            "/x/..",
            "/x/.",
            "/./x",
            "/..",
            "/x/%2e%2e/y",
            "/x/%2E/y",
            "/x/.%2e",
            "/x/..;a=b/y",
            "/x%2fy",
            "/x%2Fy",
            "/x%5cy",
            "/x\\y",
            "/x/%252e%252e",
            "/x/a%3Bb",
            "/x/%00",
            "/x/%0a",
            "/x/%7f",
            "/x/%zz",
            "/x/%2",
            "/x/%",
            "/x/%c3%28",
            "/x/caf\u00e9",
            "x/y",
            "/x/\ty"
        }) {
            assertThat(RequestPaths.normalise(ambiguous)).as(ambiguous).isNull();
        }
    }
}
