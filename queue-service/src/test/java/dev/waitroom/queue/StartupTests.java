package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.testsupport.RealStores;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** A deployment that forgets a secret does not start, and says which one. */
class StartupTests {

    @Test
    void refusesToStartWithoutTheInternalToken() {
        assertThatThrownBy(() -> start("waitroom.security.internal-token=", "waitroom.security.ticket-key=" + TestSecrets.TICKET_KEY))
                .hasStackTraceContaining("waitroom.security.internal-token");
    }

    @Test
    void refusesToStartWithoutTheTicketKey() {
        assertThatThrownBy(() -> start("waitroom.security.internal-token=x", "waitroom.security.ticket-key="))
                .hasStackTraceContaining("waitroom.security.ticket-key");
    }

    @Test
    void refusesToStartWithATicketKeyThatIsTooShort() {
        assertThatThrownBy(() -> start("waitroom.security.internal-token=x", "waitroom.security.ticket-key=c2hvcnQ="))
                .hasStackTraceContaining("ticket-key");
    }

    private static void start(String... secrets) {
        new SpringApplicationBuilder(QueueServiceApplication.class)
                .properties("server.port=0", "spring.data.redis.host=" + RealStores.redisHost(),
                        "spring.data.redis.port=" + RealStores.redisPort(), "spring.main.banner-mode=off")
                .properties(secrets)
                .run()
                .close();
    }
}
