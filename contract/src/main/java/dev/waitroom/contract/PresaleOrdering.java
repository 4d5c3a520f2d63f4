package dev.waitroom.contract;

/** How the pre-sale group is ordered at opening: the verifiable random draw (the default) or join order. */
public enum PresaleOrdering {
    RANDOM,
    FIFO;

    public static final PresaleOrdering DEFAULT = RANDOM;

    /** The value named on the wire, {@link #DEFAULT} when missing; unknown is a {@link MalformedValueException}. */
    public static PresaleOrdering parse(String value) {
        return value == null ? DEFAULT : WireEnums.parse(PresaleOrdering.class, value, "presaleOrdering");
    }
}
