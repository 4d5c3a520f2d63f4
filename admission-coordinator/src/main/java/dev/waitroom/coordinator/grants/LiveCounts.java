package dev.waitroom.coordinator.grants;

/** Live grants of one event, counted from the grants table (never from a counter). */
public record LiveCounts(long offered, long active) {

    public long live() {
        return this.offered + this.active;
    }
}
