package dev.waitroom.gateway.admissioncheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.identity.EdgeCookies;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionCookieGlobalFilterTests {

    private static final String WIRE = "__Host-wr_at_e1";

    @Test
    void givesTheAdmissionCookieItsEventsNameTheWholeSiteAndSecureOverHttps() {
        assertThat(AdmissionCookieGlobalFilter.onTheWire(
                        "wr_at=abc; Path=/events/e1; HttpOnly; SameSite=Lax", WIRE, true))
                .isEqualTo("__Host-wr_at_e1=abc; Path=/; HttpOnly; SameSite=Lax; Secure");
        assertThat(AdmissionCookieGlobalFilter.onTheWire("wr_at=abc; Path=/events/e1; Secure; HttpOnly", WIRE, true))
                .isEqualTo("__Host-wr_at_e1=abc; Path=/; HttpOnly; Secure");
        assertThat(AdmissionCookieGlobalFilter.onTheWire("wr_at=; Path=/events/e1; Max-Age=0", WIRE, true))
                .isEqualTo("__Host-wr_at_e1=; Path=/; Max-Age=0; Secure");
        // host-only: no sibling subdomain receives an admission token
        assertThat(AdmissionCookieGlobalFilter.onTheWire(
                        "wr_at=abc; Domain=example.org; Path=/events/e1; HttpOnly", WIRE, true))
                .isEqualTo("__Host-wr_at_e1=abc; Path=/; HttpOnly; Secure");
        // plain http (the launcher): the same name without the prefix, not Secure
        assertThat(AdmissionCookieGlobalFilter.onTheWire("wr_at=abc; Path=/events/e1; HttpOnly", "wr_at_e1", false))
                .isEqualTo("wr_at_e1=abc; Path=/; HttpOnly");
    }

    @Test
    void presentsTheRequestsEventsCookieUnderItsCanonicalNameAndDropsEveryOtherAdmissionCookie() {
        assertThat(AdmissionCookieGlobalFilter.presented(List.of("a=1; __Host-wr_at_e1=good; b=2"), WIRE))
                .isEqualTo("a=1; wr_at=good; b=2");
        assertThat(AdmissionCookieGlobalFilter.presented(
                        List.of("wr_at=planted; __Host-wr_at_e1=good", "wr_at_e1=bare; __Host-wr_at_e2=other; c=3"),
                        WIRE))
                .isEqualTo("wr_at=good; c=3");
        assertThat(AdmissionCookieGlobalFilter.presented(List.of("wr_at=planted"), WIRE))
                .isEmpty();
        assertThat(AdmissionCookieGlobalFilter.presented(List.of("__Host-wr_at_e1; x=1"), WIRE))
                .isEqualTo("x=1");
        assertThat(AdmissionCookieGlobalFilter.presented(List.of("wr_at_e1=a; wr_attic=1"), null))
                .as("a request of no event is presented no token")
                .isEqualTo("wr_attic=1");
    }

    @Test
    void namesEveryWaitroomCookieForTheOriginFilter() {
        for (String name : List.of(
                "wr_vid",
                "__Host-wr_vid",
                "wr_qt",
                "__Secure-wr_qt",
                "wr_at",
                "__Secure-wr_at",
                "wr_at_e1",
                "__Host-wr_at_summer-gig",
                "waitroom_lang")) {
            assertThat(EdgeCookies.isWaitroomCookie(name)).as(name).isTrue();
        }
        for (String name : List.of("session", "wr_attic", "wr_at_", "wr_at_{x}", "JSESSIONID", "__Host-shop")) {
            assertThat(EdgeCookies.isWaitroomCookie(name)).as(name).isFalse();
        }
    }
}
