package dev.waitroom.queue.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.waitroom.queue.config.QueueProperties;
import org.springframework.stereotype.Component;

/** What this instance last saw of an event's sequences, so that a call declares the buckets it needs at once. */
@Component
public class KeyHints {

    /** Event prefix + visitor id -> the entry sequence last seen for it: the buckets a status call will need. */
    private final Cache<String, Long> entries;
    /** Event prefix -> the highest entry sequence seen: the buckets the next join will need. */
    private final Cache<String, Long> sequences =
            Caffeine.newBuilder().maximumSize(10_000).build();

    public KeyHints(QueueProperties properties) {
        this.entries =
                Caffeine.newBuilder().maximumSize(properties.entryHints()).build();
    }

    /** The entry sequence last seen for this visitor id, or null. */
    public Long entry(EventKeys event, String visitorId) {
        return entries.getIfPresent(event.prefix() + visitorId);
    }

    /** The highest entry sequence seen in this event, or null. */
    public Long lastSequence(EventKeys event) {
        return sequences.getIfPresent(event.prefix());
    }

    public void remember(EventKeys event, String visitorId, long sequence) {
        entries.put(event.prefix() + visitorId, sequence);
        sequences.asMap().merge(event.prefix(), sequence, Math::max);
    }

    /** Drops every hint of the event: its keys are gone (a warm-up's event, deleted after). Scans every hint. */
    public void forget(EventKeys event) {
        entries.asMap().keySet().removeIf(key -> key.startsWith(event.prefix()));
        sequences.invalidate(event.prefix());
    }
}
