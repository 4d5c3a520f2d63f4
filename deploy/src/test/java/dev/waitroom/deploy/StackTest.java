package dev.waitroom.deploy;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class that starts a whole stack as processes (the launcher's services, a pooler, nginx, a Node shop): tagged
 * {@code stack}, so Surefire leaves it out and Failsafe runs it in {@code integration-test}, after the service jars
 * are packaged ({@code ./waitroom test} runs it, {@code ./waitroom test --fast} does not). A class that only starts
 * an embedded store or reads files is not one.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("stack")
@interface StackTest {}
