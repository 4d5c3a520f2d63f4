package dev.waitroom.coordinator.categories;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.coordinator.SeatCategories;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.EventNotFoundException;
import dev.waitroom.coordinator.event.EventStatePublisher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Booking's report of unsold seats per category (issue 17): stores the names of the sold-out ones and, when they
 * changed, pushes the event's state at once so the page shows them within a status refresh. When every category is sold
 * out booking also sends its sold-out signal, which turns the event SOLD_OUT; this only publishes names.
 */
@Service
public class SeatCategoryIntake {

    private static final Logger log = LoggerFactory.getLogger(SeatCategoryIntake.class);

    private final SeatCategoryStore store;

    private final TransactionTemplate transactions;

    private final EventManagement management;

    private final EventStatePublisher publisher;

    SeatCategoryIntake(
            SeatCategoryStore store,
            TransactionTemplate transactions,
            EventManagement management,
            EventStatePublisher publisher) {
        this.store = store;
        this.transactions = transactions;
        this.management = management;
        this.publisher = publisher;
    }

    /**
     * Stores the sold-out categories of {@code report}; a report that changes nothing writes and pushes nothing. A
     * malformed report is a {@link MalformedValueException}, an unknown event an {@link EventNotFoundException}.
     *
     * @return the sold-out names now stored
     */
    public List<String> report(EventId id, SeatCategories report) {
        List<String> soldOut = report.validated().soldOut();
        if (new HashSet<>(report.categories().stream()
                                .map(SeatCategories.Category::name)
                                .toList())
                        .size()
                < report.categories().size()) {
            throw new MalformedValueException("each category is named once");
        }
        Boolean changed = this.transactions.execute(status -> {
            if (!this.store.lockEvent(id)) {
                throw new EventNotFoundException(id);
            }
            if (this.store.of(id).equals(soldOut)) {
                return false;
            }
            this.store.replace(id, soldOut);
            return true;
        });
        if (Boolean.TRUE.equals(changed)) {
            log.info("Event {}: sold-out seat categories now {}", id, soldOut);
            // read after the commit, so this push carries at least this report (a later one pushes its own)
            this.publisher.publishQuietly(this.management.get(id));
        }
        return soldOut;
    }

    /**
     * A shop's sold-out signal for one category (docs/integration/shop-signals.md): adds {@code name} to the stored
     * sold-out names, after the others, and pushes the event's state when it was not there yet. Booking's next full
     * report, where booking reports, replaces the list as a whole.
     *
     * @return the sold-out names now stored
     */
    public List<String> markSoldOut(EventId id, String name) {
        if (name == null || !EventUpdateRequest.CATEGORY.matcher(name).matches()) {
            throw new MalformedValueException("a category name is 1-64 of letters, digits, space, _ . -");
        }
        Boolean added = this.transactions.execute(status -> {
            if (!this.store.lockEvent(id)) {
                throw new EventNotFoundException(id);
            }
            List<String> current = this.store.of(id);
            if (current.contains(name)) {
                return false;
            }
            if (current.size() >= SeatCategories.MAX_CATEGORIES) {
                throw new MalformedValueException(
                        "the event has " + SeatCategories.MAX_CATEGORIES + " sold-out categories already");
            }
            List<String> next = new ArrayList<>(current);
            next.add(name);
            this.store.replace(id, next);
            return true;
        });
        if (Boolean.TRUE.equals(added)) {
            log.info("Event {}: seat category {} sold out (shop signal)", id, name);
            this.publisher.publishQuietly(this.management.get(id));
        }
        return this.store.of(id);
    }
}
