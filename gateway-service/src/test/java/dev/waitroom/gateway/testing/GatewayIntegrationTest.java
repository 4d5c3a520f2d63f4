package dev.waitroom.gateway.testing;

import dev.waitroom.gateway.GatewayApplication;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextConfiguration;

/** The one gateway test configuration: real HTTP on a random port, stub upstreams, real Redis (reachable again before each test). */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = GatewayTestInitializer.class)
@ExtendWith(RedisReachableFirst.class)
public @interface GatewayIntegrationTest {}
