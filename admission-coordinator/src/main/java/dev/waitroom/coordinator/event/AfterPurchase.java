package dev.waitroom.coordinator.event;

/** After a purchase the session is released, or kept until it expires. */
public enum AfterPurchase {
    RELEASE,
    KEEP
}
