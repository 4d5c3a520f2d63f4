package dev.waitroom.booking.holds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.testsupport.AllAtOnce;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

class HoldConcurrencyTests extends ShopTestSupport {

    @Test
    void hundredShoppersHoldingTheSameSeatLeaveExactlyOneHolder() throws Exception {
        String event = newEvent("race", 5);
        List<TestShopper> shoppers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            shoppers.add(shopper(event));
        }
        List<Response> responses = AllAtOnce.call(shoppers.stream()
                .map(s -> (Callable<Response>) () -> hold(s, "A-3"))
                .toList());

        List<Response> won = responses.stream().filter(r -> r.status() == 201).toList();
        assertThat(won).hasSize(1);
        responses.stream().filter(r -> r.status() != 201).forEach(r -> r.assertProblem(409, "seats-unavailable"));
        assertThat(responses.stream().filter(r -> r.status() == 409)).hasSize(99);
        String holdId = won.get(0).text("holdId");
        assertThat(seatRow(event, "A-3"))
                .containsEntry("state", "HELD")
                .containsEntry("hold_id", java.util.UUID.fromString(holdId));
        assertThat(count("SELECT count(*) FROM holds WHERE event_id = ?", event))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ? AND state = 'AVAILABLE'", event))
                .isEqualTo(4);
    }

    /** Overlapping multi-seat holds in random orders: never a seat in two live holds, never a deadlock or 5xx. */
    @Test
    void overlappingMultiSeatHoldsNeverShareASeat() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String event = newEvent("overlap", 12);
        List<Callable<Response>> attempts = new ArrayList<>();
        List<List<String>> wanted = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            List<String> all = seats("A", 1, 12);
            Collections.shuffle(all, random);
            List<String> pick = all.subList(0, 1 + random.nextInt(4));
            wanted.add(pick);
            TestShopper shopper = shopper(event);
            attempts.add(() -> hold(shopper, pick.toArray(String[]::new)));
        }
        List<Response> responses = AllAtOnce.call(attempts);

        List<String> heldSeats = new ArrayList<>();
        for (int i = 0; i < responses.size(); i++) {
            Response r = responses.get(i);
            assertThat(r.status())
                    .as("seed %d, attempt %d: %s", seed, i, r.raw().body())
                    .isIn(201, 409);
            if (r.status() == 201) {
                heldSeats.addAll(wanted.get(i));
            }
        }
        assertThat(heldSeats).as("seed %d", seed).doesNotHaveDuplicates();
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ? AND state = 'HELD'", event))
                .as("seed %d", seed)
                .isEqualTo(heldSeats.size());
        assertThat(count(
                        "SELECT count(*) FROM hold_seats hs JOIN holds h USING (hold_id) "
                                + "WHERE h.event_id = ? AND h.state = 'ACTIVE'",
                        event))
                .isEqualTo(heldSeats.size());
    }
}
