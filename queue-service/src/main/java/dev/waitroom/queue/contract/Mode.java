package dev.waitroom.queue.contract;

/** The event's operating mode, set by the coordinator. */
public enum Mode {
    QUEUEING, PAUSED, SOLD_OUT, BYPASS;

    public static Mode parse(String value) {
        return Phase.parseEnum(Mode.class, value, "mode");
    }
}
