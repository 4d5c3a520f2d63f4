package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.web.testapp.TestController;

/** Counts the requests that reached a handler since it was made: a refused request never does. */
final class HandlerCalls {

    private final int before = TestController.HANDLED.get();

    void assertNone() {
        assertThat(TestController.HANDLED.get())
                .as("requests that reached a handler")
                .isEqualTo(before);
    }
}
