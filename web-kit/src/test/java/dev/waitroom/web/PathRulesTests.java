package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PathRulesTests {

    @Test
    void aSubtreeMatchesItsRootAndEverythingBelowItOnly() {
        PathRules admin = PathRules.of(List.of("/admin/**"));
        assertThat(admin.matches("GET", "/admin", false)).isTrue();
        assertThat(admin.matches("GET", "/admin/", false)).isTrue();
        assertThat(admin.matches("GET", "/admin/events/x", false)).isTrue();
        assertThat(admin.matches("GET", "/administrator", false)).isFalse();
        assertThat(admin.matches("GET", "/ADMIN/events", false)).isFalse();
        assertThat(admin.matches("GET", "/ADMIN/events", true)).isTrue();
        assertThat(PathRules.of(List.of("/**")).matches("POST", "/anything/at/all", false))
                .isTrue();
    }

    @Test
    void anExactPathMatchesOnlyItselfAndAMethodNarrowsIt() {
        PathRules jwks = PathRules.of(List.of("GET /.well-known/jwks.json", "/actuator/prometheus"));
        assertThat(jwks.matches("GET", "/.well-known/jwks.json", false)).isTrue();
        assertThat(jwks.matches("POST", "/.well-known/jwks.json", false)).isFalse();
        assertThat(jwks.matches("POST", "/actuator/prometheus", false)).isTrue();
        assertThat(jwks.matches("GET", "/actuator/prometheus/x", false)).isFalse();
        assertThat(jwks.matches("GET", "/actuator/prometheusx", false)).isFalse();
    }

    @Test
    void aStarSegmentMatchesExactlyOneNonEmptySegment() {
        PathRules rules = PathRules.of(List.of("PUT /internal/events/*", "/events/*/queue/**", "GET /events/*/status"));
        assertThat(rules.matches("PUT", "/internal/events/e1", false)).isTrue();
        assertThat(rules.matches("PUT", "/internal/events/e1/draw", false)).isFalse();
        assertThat(rules.matches("PUT", "/internal/events/", false)).isFalse();
        assertThat(rules.matches("PUT", "/internal/events", false)).isFalse();
        assertThat(rules.matches("GET", "/internal/events/e1", false)).isFalse();
        assertThat(rules.matches("POST", "/events/e1/queue", false)).isTrue();
        assertThat(rules.matches("GET", "/events/e1/queue/status", false)).isTrue();
        assertThat(rules.matches("GET", "/events//queue/status", false)).isFalse();
        assertThat(rules.matches("GET", "/events/e1/queuex", false)).isFalse();
        assertThat(rules.matches("GET", "/events/e1/status", false)).isTrue();
        assertThat(rules.matches("GET", "/events/e1/e2/status", false)).isFalse();
        assertThat(rules.matches("GET", "/EVENTS/e1/status", false)).isFalse();
        assertThat(rules.matches("GET", "/EVENTS/e1/status", true)).isTrue();
        assertThat(PathRules.of(List.of("/")).matches("GET", "/", false)).isTrue();
        assertThat(PathRules.of(List.of("/")).matches("GET", "/a", false)).isFalse();
    }

    @Test
    void noPatternsMatchNothing() {
        assertThat(PathRules.of(List.of()).isEmpty()).isTrue();
        assertThat(PathRules.of(List.of()).matches("GET", "/", true)).isFalse();
    }

    @Test
    void patternsThatWouldReadAsSomethingElseAreRefused() {
        for (String pattern : new String[] {
            "/admin/x*",
            "/admin/*x/y",
            "/a/**/b",
            "/**/b",
            "/a/***",
            "admin/**",
            "/a?",
            "/{id}",
            "/a/",
            "/a//b",
            "/a/../b",
            "get /a",
            "/a;b",
            "/a%2fb",
            ""
        }) {
            assertThatThrownBy(() -> PathRules.of(List.of(pattern)))
                    .as(pattern)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + pattern + "'");
        }
    }
}
