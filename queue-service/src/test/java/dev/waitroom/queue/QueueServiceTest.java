package dev.waitroom.queue;

import dev.waitroom.testsupport.RealStoresInitializer;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextConfiguration;

/**
 * The one test configuration: the real service on a random port against the JVM's real Redis. A test takes a
 * {@link QueueClient} for it as a constructor parameter.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(
        classes = QueueServiceApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"waitroom.queue.draw-chunk-size=100", "waitroom.queue.busy-status-per-second=1000000"})
@ContextConfiguration(initializers = {RealStoresInitializer.class, TestSecrets.class})
@ExtendWith(QueueClientResolver.class)
public @interface QueueServiceTest {}
