package dev.waitroom.queue;

import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicketCodec;
import java.security.SecureRandom;
import java.util.Base64;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/** Random secrets, one set per test JVM (so every test class shares one Spring context). */
public final class TestSecrets implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final SecureRandom RANDOM = new SecureRandom();
    public static final String INTERNAL_TOKEN = random(24);
    public static final String TICKET_KEY = random(32);

    public static QueueTicketCodec ticketCodec() {
        return QueueTicketCodec.of(HmacKey.fromBase64(TICKET_KEY));
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        TestPropertyValues.of(
                        "waitroom.security.internal-token=" + INTERNAL_TOKEN,
                        "waitroom.security.ticket-key=" + TICKET_KEY)
                .applyTo(context);
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }
}
