package dev.waitroom.booking;

import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecurityPropertiesTests {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    @Test
    void everySecretIsRequired() {
        assertThatThrownBy(() -> new SecurityProperties(null, "i", KEY)).hasMessageContaining("WAITROOM_OPS_TOKEN");
        assertThatThrownBy(() -> new SecurityProperties("o", " ", KEY)).hasMessageContaining("WAITROOM_INTERNAL_TOKEN");
        assertThatThrownBy(() -> new SecurityProperties("o", "i", "")).hasMessageContaining("WAITROOM_WEBHOOK_SECRET");
        assertThatThrownBy(() -> new SecurityProperties("o", "i", "not base64!")).hasMessageContaining("base64");
        assertThatThrownBy(() -> new SecurityProperties("o", "i", Base64.getEncoder().encodeToString(new byte[16])))
                .hasMessageContaining("32 bytes");
    }

    @Test
    void secretsNeverShowInToString() {
        SecurityProperties properties = new SecurityProperties("ops-secret-value", "internal-secret-value", KEY);
        assertThat(properties.toString()).doesNotContain("ops-secret-value", "internal-secret-value", KEY);
        assertThat(properties.isOpsToken("ops-secret-value")).isTrue();
        assertThat(properties.isOpsToken("ops-secret-valuf")).isFalse();
        assertThat(properties.isOpsToken(null)).isFalse();
    }

    @Test
    void theServiceRefusesToStartWithoutItsSecrets() {
        SpringApplication application = new SpringApplication(BookingServiceApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> application.run("--spring.autoconfigure.exclude="
                + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
                + "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
                "--spring.main.lazy-initialization=false",
                "--logging.level.org.springframework.boot.diagnostics=off"))
                .rootCause().hasMessageContaining("WAITROOM_OPS_TOKEN");
    }
}
