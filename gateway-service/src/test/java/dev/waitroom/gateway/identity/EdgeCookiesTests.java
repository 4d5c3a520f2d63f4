package dev.waitroom.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.config.EdgeProperties;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class EdgeCookiesTests {

    @Test
    void overHttpsEveryCookieIsPrefixedSecureHttpOnlyAndLax() {
        EdgeCookies cookies = new EdgeCookies(bind(Map.of()));

        assertThat(cookies.secure()).isTrue();
        assertThat(cookies.visitor("v").toString())
                .startsWith("__Host-wr_vid=v; Path=/; Max-Age=43200; Expires=")
                .endsWith("; Secure; HttpOnly; SameSite=Lax")
                .doesNotContainIgnoringCase("Domain");
        assertThat(cookies.ticket(EventId.of("e-1"), "t", false).toString())
                .isEqualTo("__Secure-wr_qt=t; Path=/events/e-1; Secure; HttpOnly; SameSite=Lax");
        assertThat(cookies.ticket(EventId.of("e-1"), "t", true).toString())
                .startsWith("__Secure-wr_qt=; Path=/events/e-1; Max-Age=0;")
                .contains("Secure");
        assertThat(cookies.admissionName()).isEqualTo("__Secure-wr_at");
        assertThat(cookies.onTheWire("wr_qt")).isEqualTo("__Secure-wr_qt");
        assertThat(cookies.onTheWire("other")).isEqualTo("other");
    }

    /** The one predicate of what never reaches a shop origin: every name, prefix and per-event admission cookie. */
    @Test
    void waitroomCookiesAreKnownUnderEveryNameAndNothingElseIs() {
        assertThat(List.of(
                        "wr_vid",
                        "wr_qt",
                        "wr_at",
                        "wr_at_summer-tour",
                        "__Host-wr_vid",
                        "__Secure-wr_qt",
                        "__Secure-wr_at",
                        "__Secure-wr_at_e-1",
                        "__Host-wr_at_e-1"))
                .allMatch(EdgeCookies::isWaitroomCookie);
        assertThat(List.of(
                        "wr_vidx",
                        "wr_atx",
                        "wr_qt2",
                        "xwr_at",
                        "WR_AT",
                        "__Secure-",
                        "__Host-session",
                        "session",
                        "wr_",
                        ""))
                .noneMatch(EdgeCookies::isWaitroomCookie);
    }

    @Test
    void overPlainHttpNamesStayBareAndCookiesAreNotSecure() {
        EdgeCookies cookies = new EdgeCookies(bind(Map.of("waitroom.gateway.secure-cookies", "false")));

        assertThat(cookies.visitorName()).isEqualTo("wr_vid");
        assertThat(cookies.ticketName()).isEqualTo("wr_qt");
        assertThat(cookies.admissionName()).isEqualTo("wr_at");
        assertThat(cookies.visitor("v").isSecure()).isFalse();
        assertThat(cookies.visitor("v").isHttpOnly()).isTrue();
    }

    @Test
    void theVisitorCookiesLifetimeFitsASaleAndIsConfigurable() {
        assertThat(bind(Map.of()).cookies().visitorMaxAge()).isEqualTo(Duration.ofHours(12));
        EdgeCookies shorter = new EdgeCookies(bind(Map.of("waitroom.gateway.cookies.visitor-max-age", "30m")));
        assertThat(shorter.visitor("v").getMaxAge()).isEqualTo(Duration.ofMinutes(30));
        assertThatThrownBy(() -> bind(Map.of("waitroom.gateway.cookies.visitor-max-age", "0s")))
                .hasStackTraceContaining("visitor-max-age must be positive");
    }

    private static EdgeProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("waitroom.gateway", EdgeProperties.class);
    }
}
