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
    void refusesToStartWithoutItsCallersHashes() {
        assertThatThrownBy(() -> start("waitroom.security.ticket-key=" + TestSecrets.TICKET_KEY))
                .hasStackTraceContaining("waitroom.security.callers.<service>")
                .hasStackTraceContaining("WAITROOM_SECURITY_CALLERS_<SERVICE>");
    }

    @Test
    void refusesToStartWithTheRetiredSharedToken() {
        assertThatThrownBy(() -> start(
                        TestSecrets.GATEWAY.callerProperty(),
                        TestSecrets.COORDINATOR.callerProperty(),
                        "waitroom.security.internal-token=" + TestSecrets.TICKET_KEY,
                        "waitroom.security.ticket-key=" + TestSecrets.TICKET_KEY))
                .hasStackTraceContaining("waitroom.security.internal-token")
                .hasStackTraceContaining("no longer used");
    }

    @Test
    void refusesToStartWithACallerItDoesNotHave() {
        assertThatThrownBy(() -> start(
                        TestSecrets.GATEWAY.callerProperty(),
                        TestSecrets.COORDINATOR.callerProperty(),
                        TestSecrets.BOOKING.callerProperty(),
                        "waitroom.security.ticket-key=" + TestSecrets.TICKET_KEY))
                .hasStackTraceContaining("waitroom.security.callers.booking")
                .hasStackTraceContaining("allows it no route");
    }

    @Test
    void refusesToStartWithoutTheTicketKey() {
        assertThatThrownBy(() -> start(
                        TestSecrets.GATEWAY.callerProperty(),
                        TestSecrets.COORDINATOR.callerProperty(),
                        "waitroom.security.ticket-key="))
                .hasStackTraceContaining("waitroom.security.ticket-key");
    }

    @Test
    void refusesToStartWithATicketKeyThatIsTooShort() {
        assertThatThrownBy(() -> start(
                        TestSecrets.GATEWAY.callerProperty(),
                        TestSecrets.COORDINATOR.callerProperty(),
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
