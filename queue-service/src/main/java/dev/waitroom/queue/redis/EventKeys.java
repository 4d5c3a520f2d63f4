package dev.waitroom.queue.redis;

import dev.waitroom.queue.contract.EventId;
import java.util.List;

/**
 * The Redis keys of one event (docs/CONTRACTS.md, "Redis keys and topologies"); every key starts with
 * {@code wr:{eventId}:}, one cluster slot: {@code ev} event hash; {@code seq} the sequence that numbers entries and
 * order keys; {@code cnt} counters; {@code w} bitmap of WAITING order keys; {@code id:<0..2047>} identity -> entry
 * sequence; {@code e:<seq/128>} entry records; {@code o:<key/128>} order key -> entry sequence; {@code s:<seq/128>}
 * last seen (apart from order); {@code of} grant and deadline of offered entries. The small bucketed hashes stay in
 * Redis's compact encoding, which keeps a waiting visitor near 100 bytes.
 */
public final class EventKeys {

    /** Entries (and order keys) per bucket of {@code e:}, {@code s:} and {@code o:}. */
    public static final int BUCKET = 128;
    static final int IDENTITY_BUCKETS = 2048;

    public static final String SEQUENCE = "seq";
    public static final String COUNTERS = "cnt";
    public static final String WAITING = "w";
    public static final String OFFERS = "of";
    public static final String ENTRIES = "e";
    public static final String SEEN = "s";
    public static final String ORDER = "o";

    private EventKeys() {
    }

    /** The event hash, also the key a script of the event is routed by. */
    public static String event(EventId event) {
        return event.keyPrefix() + "ev";
    }

    /** One of the event's single keys: {@link #SEQUENCE}, {@link #COUNTERS}, {@link #WAITING}, {@link #OFFERS}. */
    public static String named(EventId event, String name) {
        return event.keyPrefix() + name;
    }

    /** The bucket of {@code kind} ({@link #ENTRIES}, {@link #SEEN}, {@link #ORDER}) that holds sequence or order key n. */
    public static String bucket(EventId event, String kind, long n) {
        return event.keyPrefix() + kind + ":" + n / BUCKET;
    }

    /** Adds the buckets {@code kinds} of sequence or order key n. */
    public static void addBuckets(List<? super String> keys, EventId event, long n, String... kinds) {
        for (String kind : kinds) {
            keys.add(bucket(event, kind, n));
        }
    }

    /** Identities spread over small hashes, each kept in Redis's compact encoding. */
    public static String identity(EventId event, String identity) {
        return event.keyPrefix() + "id:" + Math.floorMod(identity.hashCode(), IDENTITY_BUCKETS);
    }
}
