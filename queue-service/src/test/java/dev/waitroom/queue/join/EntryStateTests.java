package dev.waitroom.queue.join;

import static dev.waitroom.queue.join.EntryState.ACTIVE;
import static dev.waitroom.queue.join.EntryState.COMPLETED;
import static dev.waitroom.queue.join.EntryState.EXPIRED;
import static dev.waitroom.queue.join.EntryState.LEFT;
import static dev.waitroom.queue.join.EntryState.OFFERED;
import static dev.waitroom.queue.join.EntryState.WAITING;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The transitions of docs/design/architecture.md#queue-entry, written down once in the enum. */
class EntryStateTests {

    @Test
    void eachStateMovesOnlyWhereTheLifecycleAllows() {
        assertThat(WAITING.next()).containsExactlyInAnyOrder(OFFERED, LEFT);
        assertThat(OFFERED.next()).containsExactlyInAnyOrder(ACTIVE, WAITING, EXPIRED);
        assertThat(ACTIVE.next()).containsExactlyInAnyOrder(COMPLETED, EXPIRED);
        assertThat(COMPLETED.next()).isEmpty();
        assertThat(LEFT.next()).isEmpty();
        assertThat(EXPIRED.next()).isEmpty();
    }

    @Test
    void canMoveToAnswersFromNext() {
        for (EntryState from : EntryState.values()) {
            for (EntryState to : EntryState.values()) {
                assertThat(from.canMoveTo(to))
                        .as(from + " -> " + to)
                        .isEqualTo(from.next().contains(to));
            }
        }
        assertThat(WAITING.canMoveTo(ACTIVE)).isFalse();
        assertThat(WAITING.canMoveTo(WAITING)).isFalse();
    }
}
