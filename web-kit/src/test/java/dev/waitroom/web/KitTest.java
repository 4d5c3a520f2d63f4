package dev.waitroom.web;

import dev.waitroom.web.testapp.TestApplication;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextConfiguration;

/**
 * The test service as the queue-service and the coordinator use the kit: the internal credential everywhere but
 * health, metrics and one public GET; the ops token on {@code /admin/**}; bodies up to 1 KB. One context for all.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ContextConfiguration(initializers = KitCredentials.class)
@SpringBootTest(
        classes = TestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "waitroom.security.ops-token=" + TestHttp.OPS_TOKEN,
            "waitroom.web.internal-credential.public-paths=/actuator/health/**,/actuator/prometheus,GET /public/jwks",
            "waitroom.web.max-body-size=1KB",
            "management.endpoints.web.exposure.include=health"
        })
@interface KitTest {}
