package dev.waitroom.queue.contract;

/** How the pre-sale group is ordered at opening: the verifiable random draw (default) or join order. */
public enum PresaleOrdering {
    RANDOM, FIFO;

    public static PresaleOrdering parse(String value) {
        return value == null ? RANDOM : Phase.parseEnum(PresaleOrdering.class, value, "presaleOrdering");
    }
}
