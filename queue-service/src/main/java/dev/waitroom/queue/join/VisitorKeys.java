package dev.waitroom.queue.join;

import dev.waitroom.queue.contract.EventId;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.KeyHints;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The keys a visitor's join, status or leave declares: the event hash and identity buckets first (the scripts read
 * them as KEYS[1..3]), the fixed keys, and the buckets the hints name.
 */
@Component
public class VisitorKeys {

    private final KeyHints hints;

    VisitorKeys(KeyHints hints) {
        this.hints = hints;
    }

    public List<String> of(EventId event, Visitor visitor, boolean joining) {
        List<String> keys = new ArrayList<>(identityKeys(event, visitor));
        keys.addAll(List.of(EventKeys.named(event, EventKeys.COUNTERS), EventKeys.named(event, EventKeys.WAITING),
                EventKeys.named(event, EventKeys.OFFERS)));
        Long entry = hints.entry(event, visitor.visitorId().value());
        if (entry != null) {
            EventKeys.addBuckets(keys, event, entry, EventKeys.ENTRIES, EventKeys.SEEN);
        }
        if (joining) {
            keys.add(EventKeys.named(event, EventKeys.SEQUENCE));
            Long last = hints.lastSequence(event);
            long next = last == null ? 1 : last + 1;
            EventKeys.addBuckets(keys, event, next, EventKeys.ENTRIES, EventKeys.SEEN, EventKeys.ORDER);
            if (next % EventKeys.BUCKET >= EventKeys.BUCKET - 32) {
                EventKeys.addBuckets(keys, event, next + EventKeys.BUCKET, EventKeys.ENTRIES, EventKeys.SEEN,
                        EventKeys.ORDER);
            }
        }
        return keys;
    }

    /** The entry this visitor holds, for the keys of its next call. */
    public void remember(EventId event, Visitor visitor, EntryId entry) {
        hints.remember(event, visitor.visitorId().value(), entry.sequence());
    }

    private static List<String> identityKeys(EventId event, Visitor visitor) {
        String visitorKey = EventKeys.identity(event, visitor.visitorId().value());
        String accountKey = visitor.account() == null ? visitorKey : EventKeys.identity(event, visitor.accountIdentity());
        return List.of(EventKeys.event(event), visitorKey, accountKey);
    }
}
