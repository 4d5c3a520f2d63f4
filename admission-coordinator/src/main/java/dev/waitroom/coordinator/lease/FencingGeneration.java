package dev.waitroom.coordinator.lease;

/** The fencing token of a lease: grows by one each time the lease changes hands. */
public record FencingGeneration(long value) {

    public FencingGeneration {
        if (value < 1) {
            throw new IllegalArgumentException("fencing generations start at 1");
        }
    }
}
