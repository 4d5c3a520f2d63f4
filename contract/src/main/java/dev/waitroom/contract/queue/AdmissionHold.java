package dev.waitroom.contract.queue;

import dev.waitroom.contract.MalformedValueException;
import java.time.Instant;

/**
 * Why offers are held back while the event is open and queueing, as the waiting page says it
 * (docs/operating/schedules-and-pauses.md): the shop's health paused or slowed admission, or a planned window of the
 * schedule holds it. {@code reason} is the window's reason as ops wrote it (null for the shop's health); {@code until}
 * the window's planned end (null when not planned). Places are kept in every case. Carried from the coordinator's push
 * through the queue's snapshot to the gateway; {@code cause} is a String on the wire, read by {@link #causeValue()}.
 */
public record AdmissionHold(String cause, String reason, Instant until) {

    /** The longest reason carried, in characters (the schedule's own limit). */
    public static final int MAX_REASON = 200;

    public enum Cause {
        /** The shop's health paused admission (critical or stale). */
        SHOP_PAUSED,
        /** The shop's health slowed admission below the event's maximum rate. */
        SHOP_SLOWED,
        /** A planned PAUSE window. */
        PLANNED_PAUSE,
        /** A planned QUEUE_ALL window, or outside the event's planned OPEN windows: everyone queues, no offers. */
        PLANNED_QUEUE_ALL
    }

    public static AdmissionHold of(Cause cause, String reason, Instant until) {
        return new AdmissionHold(cause.name(), reason, until);
    }

    public Cause causeValue() {
        for (Cause c : Cause.values()) {
            if (c.name().equals(this.cause)) {
                return c;
            }
        }
        throw new MalformedValueException("unknown admissionHold.cause");
    }

    /** Whether no offer is made while it lasts (all but a slowed shop): no progress and no estimate are shown then. */
    public boolean stopsOffers() {
        return causeValue() != Cause.SHOP_SLOWED;
    }

    /** Whether the shop's health, not the plan, holds admission. */
    public boolean byHealth() {
        Cause c = causeValue();
        return c == Cause.SHOP_PAUSED || c == Cause.SHOP_SLOWED;
    }

    /** The hold as one string (the queue keeps it in the event hash): cause, planned end in epoch millis, reason. */
    public String encode() {
        return this.cause + "|" + (this.until == null ? "" : Long.toString(this.until.toEpochMilli())) + "|"
                + (this.reason == null ? "" : this.reason);
    }

    /** The hold {@link #encode} wrote; null or empty is none. */
    public static AdmissionHold decode(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return null;
        }
        String[] parts = encoded.split("\\|", 3);
        if (parts.length < 3) {
            return null;
        }
        return new AdmissionHold(
                parts[0],
                parts[2].isEmpty() ? null : parts[2],
                parts[1].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(parts[1])));
    }

    /** This hold when its shape is sound, else a {@link MalformedValueException} naming the fault. */
    public AdmissionHold validated() {
        if (this.cause == null) {
            throw new MalformedValueException("admissionHold.cause is required");
        }
        causeValue();
        if (this.reason != null && this.reason.length() > MAX_REASON) {
            throw new MalformedValueException("admissionHold.reason is limited to " + MAX_REASON + " characters");
        }
        return this;
    }
}
