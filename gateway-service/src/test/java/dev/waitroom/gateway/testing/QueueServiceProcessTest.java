package dev.waitroom.gateway.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class that starts the real queue-service from its jar ({@code QueueServiceProcess}): tagged {@code stack}, as
 * deploy's whole-stack tests are, so Surefire leaves it out and Failsafe runs it in {@code integration-test}.
 * {@code ./waitroom test} runs it; {@code ./waitroom test --fast} ({@code -DskipITs}) does not, and then the gateway's
 * module does not wait for the queue-service's to be built (the {@code queue-service-process} profile of
 * gateway-service/pom.xml, docs/reference/tests.md).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("stack")
public @interface QueueServiceProcessTest {}
