package dev.waitroom.contract.queue;

/**
 * The queue-service's internal routes, as URI templates for the clients and as mapping constants for its
 * controllers. Every variable is named as the controllers bind it ({@code eventId}, {@code entryId}).
 */
public final class QueuePaths {

    /** {@code PUT}: the event state the coordinator pushes ({@link EventUpdateRequest} -> {@link EventStateView}). */
    public static final String EVENT = "/internal/events/{eventId}";

    /** {@code POST}: the pre-sale draw ({@link DrawRequest} -> {@link DrawResult}). */
    /**
     * DELETE of {@link #EVENT}: the coordinator drops an archived or deleted event's keys; with this query parameter
     * {@code true}, only if nobody has joined it (409 {@code state-conflict} otherwise).
     */
    public static final String DROP_IF_EMPTY = "ifEmpty";

    public static final String DRAW = EVENT + "/draw";

    /** {@code GET} with {@value #CANDIDATES_LIMIT}: the next WAITING entries ({@link Candidates}). */
    public static final String CANDIDATES = EVENT + "/candidates";

    /** The query parameter of {@link #CANDIDATES}: how many entries at most. */
    public static final String CANDIDATES_LIMIT = "limit";

    /**
     * The query parameter of {@link #CANDIDATES}: the lane whose entries are wanted; absent, the general lane
     * (docs/operating/lanes-and-access-codes.md).
     */
    public static final String CANDIDATES_LANE = "lane";

    /** {@code POST}: places a visitor's entry in a lane ({@link LaneMove} -> {@link LaneMoveResult}). */
    public static final String LANE = EVENT + "/lane";

    /** {@code POST}: WAITING -> OFFERED ({@link OfferBatch} -> {@link OfferResults}). */
    public static final String OFFERS = EVENT + "/offers";

    /** {@code POST}: moves one entry along ({@link EntryTransition} -> {@link EntryTransitionResult}). */
    public static final String TRANSITION = EVENT + "/entries/{entryId}/transition";

    /** {@code GET}: the event's counters ({@link QueueCounts}). */
    public static final String COUNTS = EVENT + "/counts";

    /** {@code POST}: the gateway's batch of entries whose polls it answered ({@link LivenessBatch} -> {@link LivenessResult}). */
    public static final String LIVENESS = EVENT + "/liveness";

    /**
     * {@code POST}: the joins one gateway collected for the event, in the order they arrived ({@link JoinBatch} ->
     * {@link JoinResults}, one result per join, in order). The gateway's alone: no other caller sends joins.
     */
    public static final String JOINS = EVENT + "/joins";

    /** {@code GET}: the gateway's edge snapshot ({@link QueueSnapshot}). */
    public static final String SNAPSHOT = EVENT + "/snapshot";

    private QueuePaths() {}
}
