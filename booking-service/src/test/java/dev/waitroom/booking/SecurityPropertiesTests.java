package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;

class SecurityPropertiesTests {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String OTHER_KEY = Base64.getEncoder().encodeToString(new byte[] {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
        31, 32
    });

    @Test
    void theWebhookSecretIsRequiredAndLongEnough() {
        assertThatThrownBy(() -> new SecurityProperties("")).hasMessageContaining("WAITROOM_SECURITY_WEBHOOKSECRET");
        assertThatThrownBy(() -> new SecurityProperties(null)).hasMessageContaining("WAITROOM_SECURITY_WEBHOOKSECRET");
        assertThatThrownBy(() -> new SecurityProperties("not base64!")).hasMessageContaining("base64");
        assertThatThrownBy(() -> new SecurityProperties(Base64.getEncoder().encodeToString(new byte[16])))
                .hasMessageContaining("32 bytes");
        assertThat(new SecurityProperties(OTHER_KEY).webhookKey()).hasSize(32);
    }

    @Test
    void secretsNeverShowInToString() {
        assertThat(new SecurityProperties(OTHER_KEY).toString()).doesNotContain(OTHER_KEY);
    }

    /**
     * The ops token and the gateway's hash are the web kit's: without them the service does not start, naming the
     * variable; nor without the keys it verifies the gateway's
     * Waitroom-Admission header with; nor with the retired shared token.
     */
    @Test
    void theServiceRefusesToStartWithoutItsTokens() {
        String keys = "--waitroom.verifier.jwks-url=http://127.0.0.1:9/.well-known/waitroom-admission-keys";
        String webhook = "--waitroom.security.webhook-secret=" + KEY;
        String gateway = "--" + TestSecrets.GATEWAY.callerProperty();
        String own = "--" + TestSecrets.BOOKING.credentialProperty();
        String ops = "--waitroom.security.ops-token=" + TestSecrets.OPS_TOKEN;
        assertThatThrownBy(() -> start(keys, webhook, own, ops))
                .rootCause()
                .hasMessageContaining("WAITROOM_SECURITY_CALLERS_<SERVICE>");
        assertThatThrownBy(() -> start(keys, webhook, own, gateway))
                .rootCause()
                .hasMessageContaining("WAITROOM_SECURITY_OPSTOKEN");
        assertThatThrownBy(() -> start(
                        keys,
                        webhook,
                        own,
                        gateway,
                        ops,
                        "--waitroom.security.internal-token=" + TestSecrets.OPS_TOKEN))
                .rootCause()
                .hasMessageContaining("WAITROOM_SECURITY_INTERNALTOKEN")
                .hasMessageContaining("no longer used");
        assertThatThrownBy(() -> start(webhook, own, gateway, ops))
                .rootCause()
                .hasMessageContaining("waitroom.verifier")
                .hasMessageContaining("jwks-url");
    }

    private static void start(String... secrets) {
        SpringApplication application = new SpringApplication(BookingServiceApplication.class);
        application.setWebApplicationType(WebApplicationType.SERVLET);
        // No database: the web server's filters are set up first, and fault injection's would need the pool.
        String[] args = new String[secrets.length + 5];
        args[0] = "--spring.autoconfigure.exclude="
                + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
                + "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration";
        args[1] = "--spring.main.lazy-initialization=false";
        args[2] = "--logging.level.org.springframework.boot.diagnostics=off";
        args[3] = "--server.port=0";
        args[4] = "--waitroom.booking.faults.enabled=false";
        System.arraycopy(secrets, 0, args, 5, secrets.length);
        application.run(args).close();
    }
}
