package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.testsupport.RealStores;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** A deployment that forgets a secret does not start, and says which one. */
class StartupTests {

    @Test
    void refusesToStartWithoutTheInternalToken() {
        assertThatThrownBy(() -> start(
                        "waitroom.security.internal-token=", "waitroom.security.ticket-key=" + TestSecrets.TICKET_KEY))
                .hasStackTraceContaining("waitroom.security.internal-token");
    }

    @Test
    void refusesToStartWithoutTheTicketKey() {
        assertThatThrownBy(() -> start(
                        "waitroom.security.internal-token=" + TestSecrets.INTERNAL_TOKEN,
                        "waitroom.security.ticket-key="))
                .hasStackTraceContaining("waitroom.security.ticket-key");
    }

    @Test
    void refusesToStartWithATicketKeyThatIsTooShort() {
        assertThatThrownBy(() -> start(
                        "waitroom.security.internal-token=" + TestSecrets.INTERNAL_TOKEN,
                        "waitroom.security.ticket-key=c2hvcnQ="))
                .hasStackTraceContaining("ticket-key");
    }

    /** Starts the service against the test Redis; command-line arguments, as they override application.yml. */
    private static void start(String... secrets) {
        Stream<String> properties = Stream.concat(
                Stream.of(
                        "server.port=0",
                        "spring.data.redis.host=" + RealStores.redisHost(),
                        "spring.data.redis.port=" + RealStores.redisPort(),
                        "spring.main.banner-mode=off"),
                Arrays.stream(secrets));
        new SpringApplicationBuilder(QueueServiceApplication.class)
                .run(properties.map(property -> "--" + property).toArray(String[]::new))
                .close();
    }
}
