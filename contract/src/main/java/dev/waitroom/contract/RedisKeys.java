package dev.waitroom.contract;

/**
 * The Redis keys more than one service touches (docs/reference/contracts.md#redis-keys-and-topologies). Every key of an event
 * starts with {@code wr:{<eventId>}:}, so Redis Cluster keeps an event's keys in one slot.
 */
public final class RedisKeys {

    private RedisKeys() {}

    /**
     * The protected paths of every live event ({@link dev.waitroom.contract.routes.RouteTable}): the coordinator writes
     * it on every change and every few seconds, the gateway reads it every second. Not an event's key: one for all.
     */
    public static final String ROUTES = "wr:routes";

    /**
     * The version of every event's seller's page ({@link dev.waitroom.contract.page.PageDesign}): text, {@code v1}
     * first, then one {@code <eventId> <version>} line per event that has one. The coordinator writes it on every
     * change and every few seconds, the gateway reads it every second and fetches only the designs whose version
     * changed ({@link #page}). Not an event's key: one for all.
     */
    public static final String PAGES = "wr:pages";

    /** One event's seller's page, {@link dev.waitroom.contract.page.PageDesign} as JSON; the coordinator writes it. */
    public static String page(EventId event) {
        return eventPrefix(event) + "page";
    }

    /** The prefix of every key of the event. */
    public static String eventPrefix(EventId event) {
        return "wr:{" + event.value() + "}:";
    }

    /** The live-session registry entry: the coordinator writes it, the gateway reads it. Value: the sale generation. */
    public static String session(EventId event, String sessionId) {
        return eventPrefix(event) + "session:" + sessionId;
    }

    /** The tombstone a released session leaves, so a late admit or renew cannot bring it back. */
    public static String endedSession(EventId event, String sessionId) {
        return eventPrefix(event) + "ended:" + sessionId;
    }
}
