package dev.waitroom.contract.coordinator;

import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.queue.EventUpdateRequest;
import java.util.List;

/**
 * Body of {@code PUT /internal/events/{eventId}/categories} ({@link CoordinatorPaths#CATEGORIES}): booking's count of
 * unsold seats per seat category of the event (issue 17). A category with {@code available == 0} is sold out; the
 * coordinator publishes those names to the page (through the queue-service's public status and edge snapshot), so no
 * status poll ever reads inventory.
 */
public record SeatCategories(List<Category> categories) {

    /** At most this many categories per event. */
    public static final int MAX_CATEGORIES = EventUpdateRequest.MAX_CATEGORIES;

    /** One category: its name as the page shows it, and seats neither held nor sold. */
    public record Category(String name, long available) {}

    /** This body when its shape is sound, else a {@link MalformedValueException} naming the fault. */
    public SeatCategories validated() {
        if (categories == null) {
            throw new MalformedValueException("categories is required");
        }
        if (categories.size() > MAX_CATEGORIES) {
            throw new MalformedValueException("categories holds at most " + MAX_CATEGORIES + " entries");
        }
        for (Category category : categories) {
            if (category == null
                    || category.name() == null
                    || !EventUpdateRequest.CATEGORY.matcher(category.name()).matches()) {
                throw new MalformedValueException("a category name is 1-64 of letters, digits, space, _ . -");
            }
            if (category.available() < 0) {
                throw new MalformedValueException("available is >= 0");
            }
        }
        return this;
    }

    /** The names of the sold-out categories, in the order booking sent them. */
    public List<String> soldOut() {
        return categories.stream()
                .filter(c -> c.available() == 0)
                .map(Category::name)
                .toList();
    }
}
