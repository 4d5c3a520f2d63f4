package dev.waitroom.queue.join;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.queue.redis.LuaConstants;
import dev.waitroom.queue.redis.QueueScripts;
import java.time.Instant;
import java.util.List;

/**
 * The Lua function {@code visitor_status} (scripts/lib/visitor_status.lua), which join.lua and status.lua answer
 * with, and the decoder of its reply: outcome, phase, mode, announcement, rate, waiting, entry sequence, state
 * letter, order key, ahead (-1 unknown), offer deadline (epoch millis or ''), measured pace ({@link Pace#encode} or
 * ''), when the coordinator last pushed the event (epoch millis or ''), the admission hold ({@link AdmissionHold#encode}
 * or ''), the entry's lane.
 */
public final class VisitorStatusReply {

    /**
     * Entries up to this sequence all keep their first estimate's inputs; after it one in {@link #ESTIMATE_RECORD_EVERY}
     * (sequence divisible by it). A record is about 60 bytes, half a waiting entry's whole footprint: a crowd of
     * 200,000 recorded in full would spend 12 MB of Redis on a dashboard figure that a sample of 24,000 states as
     * well. Small events (and every test sale) are still scored in full.
     */
    public static final long ESTIMATE_RECORD_ALL = 8192;

    /** After {@link #ESTIMATE_RECORD_ALL}, the one entry in this many whose estimate is recorded and scored. */
    public static final long ESTIMATE_RECORD_EVERY = 8;

    /**
     * The function's source, a prelude for the scripts that answer a visitor's status, after the sampling of the
     * estimate records it keeps ({@link #ESTIMATE_RECORD_ALL}, {@link #ESTIMATE_RECORD_EVERY}; scored by EstimateScores).
     */
    public static final String LIBRARY = LuaConstants.local("ESTIMATE_RECORD_ALL", Long.toString(ESTIMATE_RECORD_ALL))
            + LuaConstants.local("ESTIMATE_RECORD_EVERY", Long.toString(ESTIMATE_RECORD_EVERY))
            + QueueScripts.library("visitor_status");

    private static final int PHASE = 1;
    private static final int MODE = 2;
    private static final int ANNOUNCEMENT = 3;
    private static final int RATE = 4;
    private static final int WAITING = 5;
    private static final int ENTRY = 6;
    private static final int STATE = 7;
    private static final int ORDER_KEY = 8;
    private static final int AHEAD = 9;
    private static final int OFFER_EXPIRES = 10;
    private static final int PACE = 11;
    private static final int PUSHED_AT = 12;
    private static final int HOLD = 13;
    private static final int LANE = 14;

    private VisitorStatusReply() {}

    /** The status in a reply whose first element is the outcome. */
    public static VisitorStatus decode(List<String> r) {
        String offerExpires = r.get(OFFER_EXPIRES);
        String announcement = r.get(ANNOUNCEMENT);
        String mode = r.get(MODE);
        return new VisitorStatus(
                EventPhase.valueOf(r.get(PHASE)),
                mode.isEmpty() ? OperatingMode.QUEUEING : OperatingMode.valueOf(mode),
                announcement.isEmpty() ? null : announcement,
                Double.parseDouble(r.get(RATE)),
                Long.parseLong(r.get(WAITING)),
                EntryId.ofSequence(Long.parseLong(r.get(ENTRY))),
                EntryState.ofLetter(r.get(STATE)),
                Long.parseLong(r.get(ORDER_KEY)),
                Long.parseLong(r.get(AHEAD)),
                offerExpires.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(offerExpires)),
                r.size() > PACE ? Pace.decode(r.get(PACE)) : null,
                r.size() > PUSHED_AT && !r.get(PUSHED_AT).isEmpty()
                        ? Instant.ofEpochMilli(Long.parseLong(r.get(PUSHED_AT)))
                        : null,
                r.size() > HOLD ? AdmissionHold.decode(r.get(HOLD)) : null,
                r.size() > LANE ? LaneName.of(r.get(LANE)) : LaneName.GENERAL);
    }
}
