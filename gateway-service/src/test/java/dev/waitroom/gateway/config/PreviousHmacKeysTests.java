package dev.waitroom.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/** {@code visitor-key-previous} and {@code ticket-key-previous}: optional, validated like the keys, never printed. */
class PreviousHmacKeysTests {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(SecretsProperties.class)
    static class Secrets {}

    final String ticketKey = key();
    final String visitorKey = key();
    final String previousTicketKey = key();
    final String previousVisitorKey = key();

    final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Secrets.class)
            .withPropertyValues(
                    "waitroom.security.ops-token=ops-token-for-this-test",
                    "waitroom.security.service-credential="
                            + ServiceCredentials.generate("gateway").credential(),
                    "waitroom.security.ticket-key=" + ticketKey,
                    "waitroom.security.visitor-key=" + visitorKey);

    static String key() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Test
    void previousKeysAreAcceptedAlongsideTheCurrentOnesAndNeverSign() {
        runner.withPropertyValues(
                        "waitroom.security.ticket-key-previous=" + previousTicketKey,
                        "waitroom.security.visitor-key-previous=" + previousVisitorKey)
                .run(context -> {
                    SecretsProperties secrets = context.getBean(SecretsProperties.class);
                    VisitorId visitor = VisitorId.random();
                    QueueTicket ticket = new QueueTicket("evt-1", "entry-1", 7, Instant.parse("2026-05-01T10:00:00Z"));

                    for (String key : List.of(visitorKey, previousVisitorKey)) {
                        String cookie =
                                VisitorCookieCodec.of(HmacKey.fromBase64(key)).encode(visitor);
                        assertThat(secrets.visitorCookieCodec().decode(cookie)).isEqualTo(visitor);
                    }
                    for (String key : List.of(ticketKey, previousTicketKey)) {
                        String signed =
                                QueueTicketCodec.of(HmacKey.fromBase64(key)).encode(ticket);
                        assertThat(secrets.queueTicketCodec().decode(signed)).isEqualTo(ticket);
                    }
                    assertThat(secrets.visitorCookieCodec().encode(visitor))
                            .contains("." + HmacKey.fromBase64(visitorKey).keyId() + ".");
                    String third =
                            VisitorCookieCodec.of(HmacKey.fromBase64(key())).encode(visitor);
                    assertThatThrownBy(() -> secrets.visitorCookieCodec().decode(third))
                            .isInstanceOfSatisfying(
                                    TokenRejectedException.class,
                                    e -> assertThat(e.reason()).isEqualTo(RejectionReason.UNKNOWN_KEY));
                    assertThat(secrets.toString())
                            .doesNotContain(previousTicketKey)
                            .doesNotContain(previousVisitorKey);
                });
    }

    @Test
    void withoutPreviousKeysOnlyTheCurrentOnesVerify() {
        runner.withPropertyValues("waitroom.security.visitor-key-previous=").run(context -> {
            SecretsProperties secrets = context.getBean(SecretsProperties.class);
            assertThat(secrets.visitorKeyPrevious()).isNull();
            String old = VisitorCookieCodec.of(HmacKey.fromBase64(previousVisitorKey))
                    .encode(VisitorId.random());
            assertThatThrownBy(() -> secrets.visitorCookieCodec().decode(old))
                    .isInstanceOf(TokenRejectedException.class);
        });
    }

    @Test
    void aMalformedPreviousKeyStopsTheStartNamingIt() {
        runner.withPropertyValues("waitroom.security.ticket-key-previous="
                        + Base64.getEncoder().encodeToString(new byte[8]))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("ticket-key-previous");
                });
        runner.withPropertyValues("waitroom.security.visitor-key-previous=not base64!")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("visitor-key-previous")
                            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not base64!"));
                });
    }
}
