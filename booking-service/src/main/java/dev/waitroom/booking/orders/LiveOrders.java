package dev.waitroom.booking.orders;

import dev.waitroom.booking.holds.HoldId;
import dev.waitroom.booking.holds.HoldOrders;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Orders under way or paid ({@link OrderState#live()}), as the holds ask about them. */
@Component
class LiveOrders implements HoldOrders {

    /**
     * The live states as SQL literals, for {@code state IN (...)}: literal, so the planner can use the partial index
     * {@code orders_one_live_per_hold}, whose predicate names the same states.
     */
    static final String STATES =
            OrderState.live().stream().map(state -> "'" + state.name() + "'").collect(Collectors.joining(", "));

    private final JdbcClient jdbc;

    LiveOrders(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public boolean hasLiveOrder(HoldId hold) {
        return Boolean.TRUE.equals(
                jdbc.sql("SELECT EXISTS (SELECT 1 FROM orders WHERE hold_id = :h AND state IN (" + STATES + "))")
                        .param("h", hold.value())
                        .query(Boolean.class)
                        .single());
    }
}
