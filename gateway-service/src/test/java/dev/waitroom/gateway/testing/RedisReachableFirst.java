package dev.waitroom.gateway.testing;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Before each gateway test: the gateway sees its Redis again. A test that stopped Redis restarts it, but new visitors,
 * joins and claims fail closed until the gateway's next PING answers (docs/design/abuse/client-limits.md), so the next test
 * waits for that instead of failing on it.
 */
public final class RedisReachableFirst implements BeforeEachCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        MeterRegistry meters = SpringExtension.getApplicationContext(context).getBean(MeterRegistry.class);
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        meters.get("waitroom.gateway.redis.reachable").gauge().value() == 1);
    }
}
