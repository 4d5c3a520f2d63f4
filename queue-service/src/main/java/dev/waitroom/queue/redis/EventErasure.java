package dev.waitroom.queue.redis;

import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Component;

/**
 * Removes every key of an event and what this instance remembers of it: the private events a warm-up makes ({@code
 * EventId#warmUp}), and an operator's event only once the coordinator has archived or deleted it and the drop has
 * removed its event hash ({@code EventDrop}, docs/operating/event-lifecycle.md).
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

    /**
     * Deletes every key of the event but {@code keep} (a name without the prefix), scanning its one hash slot; returns
     * how many it deleted.
     */
    public long eraseExcept(EventKeys event, String keep) {
        String kept = event.named(keep);
        try {
            String[] doomed = redisson.getKeys()
                    .getKeysStreamByPattern(event.prefix() + "*")
                    .filter(key -> !key.equals(kept))
                    .toArray(String[]::new);
            return doomed.length == 0 ? 0 : redisson.getKeys().delete(doomed);
        } finally {
            hints.forget(event);
        }
    }
}
