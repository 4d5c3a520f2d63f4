package dev.waitroom.queue.join;

import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.KeyHints;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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

    public List<String> of(EventKeys event, Visitor visitor, boolean joining) {
        List<String> keys = new ArrayList<>(identityKeys(event, visitor));
        keys.addAll(List.of(event.counters(), event.waiting(), event.offers(), event.lanes(), event.laneQueue()));
        Long entry = hints.entry(event, visitor.visitorId().value());
        if (entry != null) {
            keys.add(event.entries(entry));
            keys.add(event.seen(entry));
        }
        if (joining) {
            keys.add(event.sequence());
            keys.add(event.joinWindow());
            Long last = hints.lastSequence(event);
            long next = last == null ? 1 : last + 1;
            addSequenceBuckets(keys, event, next);
            if (next % EventKeys.BUCKET >= EventKeys.BUCKET - 32) {
                addSequenceBuckets(keys, event, next + EventKeys.BUCKET);
            }
        }
        return keys;
    }

    /**
     * The keys a batch of joins declares besides the event hash and each visitor's identity buckets: the fixed keys,
     * the buckets of the entries the hints say these visitors hold, and those of as many new sequences as the batch
     * could take (and of the next bucket when they end near a bucket's end, as concurrent joins may move past them).
     */
    public Set<String> ofBatch(EventKeys event, List<Visitor> visitors) {
        Set<String> keys = new LinkedHashSet<>();
        keys.addAll(List.of(
                event.counters(),
                event.waiting(),
                event.offers(),
                event.lanes(),
                event.laneQueue(),
                event.sequence(),
                event.joinWindow()));
        for (Visitor visitor : visitors) {
            Long entry = hints.entry(event, visitor.visitorId().value());
            if (entry != null) {
                keys.add(event.entries(entry));
                keys.add(event.seen(entry));
            }
        }
        Long last = hints.lastSequence(event);
        long first = last == null ? 1 : last + 1;
        long end = first + visitors.size() - 1 + 32;
        for (long bucket = first / EventKeys.BUCKET; bucket <= end / EventKeys.BUCKET; bucket++) {
            keys.add(event.entries(bucket * EventKeys.BUCKET));
            keys.add(event.seen(bucket * EventKeys.BUCKET));
            keys.add(event.order(bucket * EventKeys.BUCKET));
        }
        return keys;
    }

    /** The entry this visitor holds, for the keys of its next call. */
    public void remember(EventKeys event, Visitor visitor, EntryId entry) {
        hints.remember(event, visitor.visitorId().value(), entry.sequence());
    }

    /** What a new entry with sequence {@code seq} touches: its record, last-seen and (once open) order bucket. */
    private static void addSequenceBuckets(List<String> keys, EventKeys event, long seq) {
        keys.add(event.entries(seq));
        keys.add(event.seen(seq));
        keys.add(event.order(seq));
    }

    /** The event hash, the visitor's identity bucket and the account's (the visitor's again without an account). */
    static List<String> identityKeys(EventKeys event, Visitor visitor) {
        String visitorKey = event.identity(visitor.visitorId().value());
        String accountKey = visitor.account() == null ? visitorKey : event.identity(visitor.accountIdentity());
        return List.of(event.event(), visitorKey, accountKey);
    }
}
