package dev.waitroom.contract.routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteTableTests {

    static Protection protection(String origin, String... paths) {
        return new Protection(
                Protection.origin(origin),
                null,
                List.of(paths).stream().map(ProtectedPath::of).toList(),
                List.of());
    }

    @Test
    void thePathGrammarIsPlainSegmentsWithAnOptionalFinalPrefix() {
        for (String ok : List.of("/", "/**", "/a", "/a/b", "/a/**", "/concerts/123/**", "/a-b_c.d~e/x:y@z")) {
            assertThat(ProtectedPath.of(ok).pattern()).isEqualTo(ok);
        }
        for (String bad : List.of(
                "", "a", "//", "/a//b", "/a/", "/a/./b", "/a/../b", "/a/*", "/a/*/b", "/a**", "/a%2fb", "/a\\b", "/a b",
                "/a?b", "/a#b", "/a;b", "/a/\r\n")) {
            assertThatThrownBy(() -> ProtectedPath.of(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            MalformedValueException.class,
                            e -> assertThat(e.problem()).isEqualTo(ProblemType.BAD_ROUTE));
        }
    }

    @Test
    void aPrefixCoversItsBaseAndBelowButNoSibling() {
        ProtectedPath prefix = ProtectedPath.of("/concerts/123/**");
        assertThat(prefix.matches("/concerts/123")).isTrue();
        assertThat(prefix.matches("/concerts/123/")).isTrue();
        assertThat(prefix.matches("/concerts/123/seats/4")).isTrue();
        assertThat(prefix.matches("/concerts/1234")).isFalse();
        assertThat(prefix.matches("/concerts")).isFalse();
        assertThat(ProtectedPath.of("/checkout/123").matches("/checkout/123/x")).isFalse();
    }

    @Test
    void overlapIsAnyPathBothCover() {
        assertThat(ProtectedPath.of("/a/**").overlaps(ProtectedPath.of("/a/b/**")))
                .isTrue();
        assertThat(ProtectedPath.of("/a/b/**").overlaps(ProtectedPath.of("/a/**")))
                .isTrue();
        assertThat(ProtectedPath.of("/a/**").overlaps(ProtectedPath.of("/a"))).isTrue();
        assertThat(ProtectedPath.of("/a/b").overlaps(ProtectedPath.of("/a/**"))).isTrue();
        assertThat(ProtectedPath.of("/a/**").overlaps(ProtectedPath.of("/ab/**")))
                .isFalse();
        assertThat(ProtectedPath.of("/a/b").overlaps(ProtectedPath.of("/a/c"))).isFalse();
        assertThat(ProtectedPath.of("/").overlaps(ProtectedPath.of("/a/**"))).isFalse();
    }

    @Test
    void theMostSpecificPatternWinsWhateverTheOrder() {
        Map<EventId, Protection> events = new LinkedHashMap<>();
        events.put(EventId.of("all"), protection("https://all.example", "/shop/**"));
        events.put(EventId.of("vip"), protection("https://vip.example", "/shop/vip/**"));
        events.put(EventId.of("exact"), protection("https://exact.example", "/shop/vip"));
        RouteTable table = RouteTable.of(1, events);
        assertThat(table.match("/shop/x").eventId()).isEqualTo(EventId.of("all"));
        assertThat(table.match("/shop/vip/x").eventId()).isEqualTo(EventId.of("vip"));
        assertThat(table.match("/shop/vip").eventId()).isEqualTo(EventId.of("exact"));
        assertThat(table.match("/shopping")).isNull();
        assertThat(table.protects(EventId.of("vip"), "/shop/vip/1")).isTrue();
        assertThat(table.protects(EventId.of("all"), "/shop/vip/1")).isFalse();
    }

    @Test
    void theTableSurvivesItsEncoding() {
        Map<EventId, Protection> events = new LinkedHashMap<>();
        events.put(
                EventId.of("e1"),
                new Protection(
                        Protection.origin("HTTPS://Shop.Example:8443/"),
                        "shop.example",
                        List.of(ProtectedPath.of("/c/1/**"), ProtectedPath.of("/checkout/1")),
                        List.of()));
        RouteTable table = RouteTable.of(42, events);
        RouteTable decoded = RouteTable.decode(table.encode());
        assertThat(decoded).isEqualTo(table);
        assertThat(decoded.match("/c/1/x").origin()).isEqualTo(URI.create("https://shop.example:8443"));
        assertThat(decoded.match("/c/1/x").host()).isEqualTo("shop.example");
        assertThatThrownBy(() -> RouteTable.decode("v2 1\n")).isInstanceOf(MalformedValueException.class);
        assertThatThrownBy(() -> RouteTable.decode("v1 1\ne1 https://a.example - /a/../b\n"))
                .isInstanceOf(MalformedValueException.class);
    }

    @Test
    void originsAreHttpUrlsOfAHostOnly() {
        for (String bad : List.of(
                "ftp://a.example",
                "javascript:alert(1)",
                "a.example",
                "https://u:p@a.example",
                "https://a.example/?q",
                "https://a.example/#f",
                "https://a.example/base",
                "https:///x",
                "http://a.example:0")) {
            assertThatThrownBy(() -> Protection.origin(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            MalformedValueException.class,
                            e -> assertThat(e.problem()).isEqualTo(ProblemType.BAD_ORIGIN));
        }
        assertThat(Protection.origin("http://127.0.0.1:8083")).hasToString("http://127.0.0.1:8083");
    }

    @Test
    void anAllowRuleWinsInsideItsProtectedPathAndTravelsInTheTable() {
        EventId event = EventId.of("concert-123");
        Protection p = protection("http://shop.test:3000", "/concerts/123/**", "/checkout/123")
                .withAllow(List.of(
                        ProtectedPath.of("/concerts/123/assets/**"), ProtectedPath.of("/concerts/123/robots.txt")));
        RouteTable table = RouteTable.decode(RouteTable.of(7, Map.of(event, p)).encode());
        assertThat(table.match("/concerts/123/assets/app.css").allowed()).isTrue();
        assertThat(table.match("/concerts/123/assets").allowed()).isTrue();
        assertThat(table.match("/concerts/123/robots.txt").allowed()).isTrue();
        assertThat(table.match("/concerts/123/robots.txt2").allowed()).isFalse();
        assertThat(table.match("/concerts/123/seats").allowed()).isFalse();
        assertThat(table.match("/concerts/123/assetsx").kind()).isEqualTo(RouteTable.Kind.PROTECT);
        assertThat(table.match("/checkout/123").allowed()).isFalse();
        assertThat(table.match("/concerts/123/assets/app.css").eventId()).isEqualTo(event);
        // an allowed path is no return target of the waiting page: nothing there waits for admission
        assertThat(table.protects(event, "/concerts/123/assets/app.css")).isFalse();
        assertThat(table.protects(event, "/concerts/123/seats")).isTrue();
        assertThat(table.entries()).hasSize(4);
    }

    @Test
    void allowRulesThatWouldOpenAWholeProtectedPathOrLieOutsideAreRefused() {
        Protection p = protection("http://shop.test:3000", "/concerts/123/**", "/checkout/123");
        for (List<String> bad : List.of(
                List.of("/**"),
                List.of("/concerts/**"),
                List.of("/concerts/123/**"),
                List.of("/checkout/123"),
                List.of("/checkout/123/**"),
                List.of("/elsewhere/robots.txt"),
                List.of("/checkout/1234"),
                List.of("/concerts/123/a", "/concerts/123/a"))) {
            assertThatThrownBy(() ->
                            p.withAllow(bad.stream().map(ProtectedPath::of).toList()))
                    .as(bad.toString())
                    .isInstanceOfSatisfying(
                            MalformedValueException.class,
                            e -> assertThat(e.problem()).isEqualTo(ProblemType.BAD_ALLOW_RULE));
        }
        assertThatThrownBy(() -> p.withAllow(List.of(ProtectedPath.of("/**")))).hasMessageContaining("every request");
        assertThat(p.withAllow(List.of(ProtectedPath.of("/concerts/123"))).allowPatterns())
                .containsExactly("/concerts/123");
    }

    @Test
    void aTableLineWithAnUnknownFifthFieldIsRefused() {
        assertThatThrownBy(() -> RouteTable.decode("v1 1\nconcert-123 http://shop.test - /concerts/123/** maybe\n"))
                .isInstanceOf(MalformedValueException.class);
    }
}
