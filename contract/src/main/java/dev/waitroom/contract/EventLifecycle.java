package dev.waitroom.contract;

import java.util.EnumSet;
import java.util.Set;

/**
 * An event's lifecycle for operators (docs/operating/event-lifecycle.md), beside the sale's phase and mode: a DRAFT is
 * prepared (its rules may change, it takes no joins and protects nothing), PUBLISHED once (its rules freeze, it goes
 * live), and ARCHIVED when its sale has ended or never opened. Deletion is no state: the row goes.
 */
public enum EventLifecycle {
    DRAFT,
    PUBLISHED,
    ARCHIVED;

    /** The states whose event is live: led by a coordinator, pushed to the queue, in the route table. */
    public static final Set<EventLifecycle> LIVE = EnumSet.of(PUBLISHED);

    public Set<EventLifecycle> next() {
        return switch (this) {
            case DRAFT -> EnumSet.of(PUBLISHED, ARCHIVED);
            case PUBLISHED -> EnumSet.of(ARCHIVED);
            case ARCHIVED -> EnumSet.noneOf(EventLifecycle.class);
        };
    }

    public boolean canMoveTo(EventLifecycle target) {
        return next().contains(target);
    }

    public boolean live() {
        return LIVE.contains(this);
    }

    /** The lifecycle named on the wire (a list filter); unknown or missing is a {@link MalformedValueException}. */
    public static EventLifecycle parse(String value) {
        return WireEnums.parse(EventLifecycle.class, value, "state");
    }
}
