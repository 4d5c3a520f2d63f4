package dev.waitroom.gateway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AdmissionCookieGlobalFilterTests {

    @Test
    void addsSecureToTheAdmissionCookieOnly() {
        assertThat(AdmissionCookieGlobalFilter.secured("wr_at=abc; Path=/; HttpOnly; SameSite=Lax"))
                .isEqualTo("wr_at=abc; Path=/; HttpOnly; SameSite=Lax; Secure");
        assertThat(AdmissionCookieGlobalFilter.secured("wr_at=abc; Path=/; Secure; HttpOnly"))
                .isEqualTo("wr_at=abc; Path=/; Secure; HttpOnly");
        assertThat(AdmissionCookieGlobalFilter.secured("other=1; Path=/")).isEqualTo("other=1; Path=/");
        assertThat(AdmissionCookieGlobalFilter.secured("wr_at=; Path=/; Max-Age=0"))
                .isEqualTo("wr_at=; Path=/; Max-Age=0; Secure");
    }
}
