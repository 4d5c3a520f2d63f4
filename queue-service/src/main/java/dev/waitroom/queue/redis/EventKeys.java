package dev.waitroom.queue.redis;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;

/**
 * The Redis keys of one event (docs/reference/contracts.md, "Redis keys and topologies"); every key starts with
 * {@code wr:{eventId}:}, one cluster slot: {@code ev} event hash; {@code seq} the sequence that numbers entries and
 * order keys; {@code cnt} counters; {@code w} bitmap of WAITING order keys; {@code id:<0..2047>} identity -> entry
 * sequence; {@code e:<seq/128>} entry records; {@code o:<key/128>} order key -> entry sequence; {@code s:<seq/128>}
 * last seen (apart from order); {@code of} grant and deadline of offered entries; {@code jr} the join ceiling's
 * window and its count of new entries; {@code lane} entry sequence -> lane of the entries in a declared lane and
 * {@code lq} the lane queue, those of them that have an order key, ordered by lane and order key
 * (docs/operating/lanes-and-access-codes.md). The small bucketed hashes stay in
 * Redis's compact encoding, which keeps a waiting visitor near 100 bytes.
 *
 * <p>One per call: the prefix is built once, however many keys the call names.
 */
public final class EventKeys {

    /** Entries (and order keys) per bucket of {@code e:}, {@code s:} and {@code o:}. */
    public static final int BUCKET = 128;

    private static final int IDENTITY_BUCKETS = 2048;

    private final String prefix;

    private EventKeys(String prefix) {
        this.prefix = prefix;
    }

    public static EventKeys of(EventId event) {
        return new EventKeys(RedisKeys.eventPrefix(event));
    }

    /** {@code wr:{eventId}:}, which the scripts get as ARGV[1] to name the keys they declare. */
    public String prefix() {
        return prefix;
    }

    /** The event hash, also the key a script of the event is routed by. */
    public String event() {
        return prefix + "ev";
    }

    public String sequence() {
        return prefix + "seq";
    }

    public String counters() {
        return prefix + "cnt";
    }

    /** The bitmap of WAITING order keys. */
    public String waiting() {
        return prefix + "w";
    }

    /**
     * The join ceiling's current window and the new entries counted in it (a hash {@code w}, {@code n}; expires
     * after two windows); join.lua touches it only when the event has a ceiling.
     */
    public String joinWindow() {
        return prefix + "jr";
    }

    /** Entry sequence -> declared lane, for the entries that redeemed an access code (lane.lua). */
    public String lanes() {
        return prefix + "lane";
    }

    /**
     * The lane queue: a sorted set of equal scores whose members {@code <lane>:<order key, 15 digits>:<sequence>}
     * order every lane's waiting entries by lane, then by order key (scripts/lib/declared_keys.lua).
     */
    public String laneQueue() {
        return prefix + "lq";
    }

    /** Grant and deadline of each offered entry. */
    public String offers() {
        return prefix + "of";
    }

    /** The bucket of entry records that holds entry sequence {@code seq}. */
    public String entries(long seq) {
        return prefix + "e:" + seq / BUCKET;
    }

    /** The bucket of last-seen times that holds entry sequence {@code seq}. */
    public String seen(long seq) {
        return prefix + "s:" + seq / BUCKET;
    }

    /** The bucket of order key -> entry sequence that holds order key {@code key}. */
    public String order(long key) {
        return prefix + "o:" + key / BUCKET;
    }

    /** Identities spread over small hashes, each kept in Redis's compact encoding. */
    public String identity(String identity) {
        return prefix + "id:" + Math.floorMod(identity.hashCode(), IDENTITY_BUCKETS);
    }

    /** A key a script named by its name without the prefix. */
    public String named(String name) {
        return prefix + name;
    }
}
