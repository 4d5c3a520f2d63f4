package dev.waitroom.gateway.testing;

import dev.waitroom.testsupport.RealStores;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Points the gateway at the stub upstreams and the JVM's real Redis, with random secrets. Only
 * Redis is started: the gateway has no database.
 */
public final class GatewayTestInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        StubUpstreams upstreams = StubUpstreams.get();
        TestPropertyValues.of(
                        "spring.data.redis.host=" + RealStores.redisHost(),
                        "spring.data.redis.port=" + RealStores.redisPort(),
                        "waitroom.services.queue-url=" + upstreams.queue.uri(),
                        "waitroom.services.coordinator-url=" + upstreams.coordinator.uri(),
                        "waitroom.services.booking-url=" + upstreams.booking.uri(),
                        "waitroom.security.ops-token=" + StubUpstreams.OPS_TOKEN,
                        StubUpstreams.GATEWAY.credentialProperty(),
                        "waitroom.security.ticket-key=" + StubUpstreams.TICKET_KEY,
                        "waitroom.security.visitor-key=" + StubUpstreams.VISITOR_KEY,
                        // an entry is reported again after a second, so tests see a change within their await
                        "waitroom.gateway.liveness-report-interval=1s",
                        // a route table written by a test is in force within a fraction of its await
                        "waitroom.gateway.routes-refresh=100ms",
                        // seller's pages written by a test are in force as quickly; their images from this host only
                        "waitroom.gateway.page.refresh=100ms",
                        "waitroom.gateway.page.image-hosts=cdn.example.com")
                .applyTo(context);
        // tests speak plain http, like the local launcher; a test class may ask for production cookies
        boolean secure = Boolean.parseBoolean(context.getEnvironment().getProperty("waitroom.test.secure-cookies"));
        TestPropertyValues.of("waitroom.gateway.secure-cookies=" + secure).applyTo(context);
    }
}
