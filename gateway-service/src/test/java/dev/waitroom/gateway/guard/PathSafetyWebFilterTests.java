package dev.waitroom.gateway.guard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PathSafetyWebFilterTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/events/e/shop/../../internal/x",
                "/events/e/shop/./seats",
                "/events/e/..",
                "/events/e/shop/%2e%2e/x",
                "/events/e/shop/%2E%2E/x",
                "/events/e%2fshop",
                "/events/e%5cshop",
                "/events/e;x=1/queue",
                "/events//e/queue",
                "/events/e\\..\\internal",
                "/events/e/%00",
                "/events/%252e%252e",
                "relative/path"
            })
    void refusesPathsAnUpstreamCouldNormaliseElsewhere(String path) {
        assertThat(PathSafetyWebFilter.isSafe(path)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/events/e-1",
                "/events/e.1/queue/status",
                "/events/e/shop/orders/o-1",
                "/assets/waiting.js",
                "/.well-known/jwks.json",
                "/admin/events/e/open",
                "/events/caf%C3%A9"
            })
    void acceptsOrdinaryPaths(String path) {
        assertThat(PathSafetyWebFilter.isSafe(path)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/events/",
                "/events//queue",
                "/events/-x/queue",
                "/events/a%20b/queue",
                "/events/<script>/queue",
                "/events/caf%C3%A9",
                "/events/e.1/queue/status",
                "/events/eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
            })
    void refusesMalformedEventIds(String path) {
        assertThat(PathSafetyWebFilter.eventIdWellFormed(path)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/events/summer-gig",
                "/events/e_1/queue/status",
                "/admin/events/x",
                "/assets/x.js",
                "/events/eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee/queue"
            })
    void acceptsWellFormedEventIds(String path) {
        assertThat(PathSafetyWebFilter.eventIdWellFormed(path)).isTrue();
    }
}
