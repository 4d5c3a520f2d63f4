package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import java.util.List;

/**
 * The event's seat categories with no seat left, as booking last reported them, for the pushed state (issue 17). The
 * categories feature implements it, so this package does not depend on that one.
 */
public interface SoldOutCategories {

    /** The sold-out category names in booking's order; empty when none is, or booking never reported. */
    List<String> of(EventId id);
}
