package dev.waitroom.queue.redis;

import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Component;

/**
 * Removes every key of an event and what this instance remembers of it. Only for the private events a warm-up makes
 * ({@code EventId#warmUp}): an operator's event is never erased, its entries end by their own transitions.
 */
@Component
public class EventErasure {

    private final RedissonClient redisson;
    private final KeyHints hints;

    EventErasure(RedissonClient redisson, KeyHints hints) {
        this.redisson = redisson;
        this.hints = hints;
    }

    /** Deletes {@code wr:{eventId}:*} (one hash slot, so one node of a cluster holds them all) and the key hints. */
    public void erase(EventKeys event) {
        try {
            redisson.getKeys().deleteByPattern(event.prefix() + "*");
        } finally {
            hints.forget(event);
        }
    }
}
