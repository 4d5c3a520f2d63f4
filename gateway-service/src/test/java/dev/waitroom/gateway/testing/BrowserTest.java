package dev.waitroom.gateway.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class that drives the pages in a real Chromium ({@link BrowserTestChromium}): tagged {@code browser}, so
 * Surefire leaves it out and Failsafe runs it in {@code integration-test}, beside the {@link QueueServiceProcessTest}
 * classes. {@code ./waitroom test} runs it; {@code ./waitroom test --fast} ({@code -DskipITs}) does not: a browser
 * test is an end-to-end test of the page, each case a second or more of a browser's CPU, not a unit or slice test
 * (docs/reference/tests.md, "Fast and slow tests apart").
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("browser")
public @interface BrowserTest {}
