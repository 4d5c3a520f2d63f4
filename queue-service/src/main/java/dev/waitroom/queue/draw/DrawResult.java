package dev.waitroom.queue.draw;

/** The pre-sale draw as done: how many entries it ordered. */
public record DrawResult(long presaleCount, boolean completed) {
}
