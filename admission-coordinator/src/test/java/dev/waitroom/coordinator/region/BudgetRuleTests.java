package dev.waitroom.coordinator.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.coordinator.region.BudgetRule.Decision;
import dev.waitroom.coordinator.region.BudgetRule.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BudgetRuleTests {

    @Test
    void capacityIsSharedInProportionToWaiting() {
        List<Row> rows = List.of(new Row("b", 0, 0, 300, false, false));
        Decision a = BudgetRule.decide(100, 0, rows, "a", 100, false);
        assertThat(a.slots()).isEqualTo(25);
        assertThat(a.share()).isEqualTo(0.25);
    }

    @Test
    void nobodyWaitingSharesEqually() {
        List<Row> rows = List.of(new Row("b", 0, 0, 0, false, false), new Row("c", 0, 0, 0, false, false));
        assertThat(BudgetRule.decide(90, 0, rows, "a", 0, false).slots()).isEqualTo(30);
    }

    @Test
    void aBudgetNeverFallsBelowItsLiveGrantsNorTakesWhatOthersHold() {
        // b holds 80 slots it has not yet returned: a's share would be 50, only 20 are free
        List<Row> rows = List.of(new Row("a", 5, 5, 100, false, false), new Row("b", 80, 30, 100, false, false));
        assertThat(BudgetRule.decide(100, 0, rows, "a", 100, false).slots()).isEqualTo(20);
        // a's share is 0 (nobody waits there) but it keeps its 5 live grants
        assertThat(BudgetRule.decide(100, 0, rows, "a", 0, false).slots()).isEqualTo(5);
    }

    @Test
    void frozenAndDrainingRegionsKeepWhatTheyHoldAndGetNoShare() {
        List<Row> rows =
                List.of(new Row("dead", 30, 10, 500, true, false), new Row("drained", 10, 10, 500, false, true));
        // 100 - 30 (frozen) - 10 (draining) = 60 to share, a is the only sharer
        assertThat(BudgetRule.decide(100, 0, rows, "a", 10, false).slots()).isEqualTo(60);
        // a draining region shrinks to its live grants
        assertThat(BudgetRule.decide(100, 0, List.of(new Row("a", 40, 12, 9, false, true)), "a", 9, true)
                        .slots())
                .isEqualTo(12);
    }

    @Test
    void centralGrantsCountAgainstEveryRegion() {
        assertThat(BudgetRule.decide(100, 70, List.of(), "a", 5, false).slots()).isEqualTo(30);
    }

    @Test
    void theDecidedBudgetsNeverOvercommitTheCeiling() {
        Random random = new Random(7);
        for (int run = 0; run < 20_000; run++) {
            int ceiling = 1 + random.nextInt(200);
            long central = random.nextInt(ceiling + 1);
            List<Row> rows = new ArrayList<>();
            long held = central;
            for (String name : List.of("a", "b", "c")) {
                int room = (int) Math.max(0, ceiling - held);
                int slots = room == 0 ? 0 : random.nextInt(room + 1);
                long live = slots == 0 ? 0 : random.nextInt(slots + 1);
                rows.add(new Row(
                        name, slots, live, random.nextInt(1000), random.nextInt(8) == 0, random.nextInt(8) == 0));
                held += slots;
            }
            Row me = rows.get(random.nextInt(rows.size()));
            Decision d = BudgetRule.decide(ceiling, central, rows, me.region(), random.nextInt(1000), me.draining());
            long after = central;
            for (Row row : rows) {
                after += row == me ? d.slots() : Math.max(row.slots(), row.live());
            }
            assertThat(d.slots()).as("never below live grants").isGreaterThanOrEqualTo((int) me.live());
            assertThat(after).as("run %d", run).isLessThanOrEqualTo(ceiling);
        }
    }
}
