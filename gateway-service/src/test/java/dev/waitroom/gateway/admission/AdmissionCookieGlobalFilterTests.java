package dev.waitroom.gateway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionCookieGlobalFilterTests {

    private static final String WIRE = "__Secure-wr_at";

    @Test
    void givesTheAdmissionCookieItsHostPrefixPathAndSecureOnly() {
        assertThat(AdmissionCookieGlobalFilter.secured("wr_at=abc; Path=/events/e1; HttpOnly; SameSite=Lax", WIRE))
                .isEqualTo("__Secure-wr_at=abc; Path=/events/e1; HttpOnly; SameSite=Lax; Secure");
        assertThat(AdmissionCookieGlobalFilter.secured("wr_at=abc; Path=/events/e1; Secure; HttpOnly", WIRE))
                .isEqualTo("__Secure-wr_at=abc; Path=/events/e1; HttpOnly; Secure");
        assertThat(AdmissionCookieGlobalFilter.secured("other=1; Path=/", WIRE)).isEqualTo("other=1; Path=/");
        assertThat(AdmissionCookieGlobalFilter.secured("wr_at=; Path=/events/e1; Max-Age=0", WIRE))
                .isEqualTo("__Secure-wr_at=; Path=/events/e1; Max-Age=0; Secure");
        // a __Host- cookie with a Domain or another path would be dropped by the browser
        // host-only: no sibling subdomain receives an admission token
        assertThat(AdmissionCookieGlobalFilter.secured(
                        "wr_at=abc; Domain=example.org; Path=/events/e1; HttpOnly", WIRE))
                .isEqualTo("__Secure-wr_at=abc; Path=/events/e1; HttpOnly; Secure");
        assertThat(AdmissionCookieGlobalFilter.secured("wr_attic=1; Path=/", WIRE))
                .isEqualTo("wr_attic=1; Path=/");
    }

    @Test
    void presentsThePrefixedCookieUnderItsCanonicalNameAndDropsAPlantedBareOne() {
        assertThat(AdmissionCookieGlobalFilter.presented(List.of("a=1; __Secure-wr_at=good; b=2"), WIRE))
                .isEqualTo("a=1; wr_at=good; b=2");
        assertThat(AdmissionCookieGlobalFilter.presented(List.of("wr_at=planted; __Secure-wr_at=good", "c=3"), WIRE))
                .isEqualTo("wr_at=good; c=3");
        assertThat(AdmissionCookieGlobalFilter.presented(List.of("wr_at=planted"), WIRE))
                .isEmpty();
        assertThat(AdmissionCookieGlobalFilter.presented(List.of("__Secure-wr_at; x=1"), WIRE))
                .isEqualTo("x=1");
    }
}
