package dev.waitroom.booking.orders;

import dev.waitroom.booking.holds.Hold;
import dev.waitroom.booking.holds.HoldId;
import dev.waitroom.booking.holds.HoldOwner;
import dev.waitroom.booking.holds.Holds;
import dev.waitroom.booking.outbox.CoordinatorOutbox;
import dev.waitroom.booking.sale.Sale;
import dev.waitroom.booking.sale.SaleOutcome;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Orders and their payment attempts. Creating an order is idempotent per hold (one order under way per hold) and
 * per Idempotency-Key; a payment outcome is applied once, by a conditional write on the attempt's state.
 */
@Service
public class Orders {

    public static final String ORDERS_METRIC = "waitroom.booking.orders";
    public static final String CHECKOUTS_METRIC = "waitroom.booking.checkouts";
    public static final String PAYMENTS_METRIC = "waitroom.booking.payments";

    private final JdbcClient jdbc;
    private final Holds holds;
    private final Sale sale;
    private final CoordinatorOutbox outbox;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transactions;
    private final MeterRegistry meters;

    Orders(
            JdbcClient jdbc,
            Holds holds,
            Sale sale,
            CoordinatorOutbox outbox,
            ApplicationEventPublisher events,
            PlatformTransactionManager transactionManager,
            MeterRegistry meters) {
        this.jdbc = jdbc;
        this.holds = holds;
        this.sale = sale;
        this.outbox = outbox;
        this.events = events;
        this.transactions = new TransactionTemplate(transactionManager);
        this.meters = meters;
    }

    /** The order and whether this call created it (false: an earlier identical request did). */
    public record Placement(Order order, boolean created) {}

    public Placement place(EventId event, HoldOwner owner, HoldId holdId, Optional<IdempotencyKey> key) {
        meters.counter(CHECKOUTS_METRIC, "outcome", "started").increment();
        try {
            return transactions.execute(tx -> placeOnce(event, owner, holdId, key));
        } catch (DuplicateKeyException raced) {
            // A concurrent identical request committed first: answer with its order.
            return transactions.execute(tx -> placeOnce(event, owner, holdId, key));
        }
    }

    private Placement placeOnce(EventId event, HoldOwner owner, HoldId holdId, Optional<IdempotencyKey> key) {
        if (key.isPresent()) {
            Optional<Order> earlier = findBy(
                    "o.event_id = :e AND o.session_id = :s AND o.idempotency_key = :k",
                    q -> q.param("e", event.value())
                            .param("s", owner.sessionId())
                            .param("k", key.get().value()));
            if (earlier.isPresent()) {
                if (!earlier.get().holdId().equals(holdId)) {
                    throw new ProblemException(
                            ProblemType.IDEMPOTENCY_KEY_REUSED,
                            "this Idempotency-Key was used for an order of another hold");
                }
                return new Placement(earlier.get(), false);
            }
        }
        Hold hold = holds.lock(event, holdId)
                .filter(h -> h.owner().sessionId().equals(owner.sessionId()))
                .orElseThrow(() -> new ProblemException(ProblemType.HOLD_NOT_FOUND, "no such hold"));
        Optional<Order> live =
                findBy("o.hold_id = :h AND o.state IN (" + LiveOrders.STATES + ")", q -> q.param("h", holdId.value()));
        if (live.isPresent()) {
            return new Placement(live.get(), false);
        }
        Instant now = jdbc.sql("SELECT now()").query((rs, n) -> instant(rs, 1)).single();
        if (!hold.isLiveAt(now)) {
            throw new ProblemException(ProblemType.HOLD_NOT_ACTIVE, "the hold has expired or was released");
        }
        OrderId orderId = OrderId.random();
        PaymentAttemptId attemptId = PaymentAttemptId.random();
        jdbc.sql("""
                INSERT INTO orders (order_id, event_id, hold_id, session_id, visitor, idempotency_key, state, amount_cents)
                VALUES (:o, :e, :h, :s, :v, :k, 'PENDING_PAYMENT', :a)
                """)
                .param("o", orderId.value())
                .param("e", event.value())
                .param("h", holdId.value())
                .param("s", owner.sessionId())
                .param("v", owner.visitor())
                .param("k", key.map(IdempotencyKey::value).orElse(null))
                .param("a", hold.amountCents())
                .update();
        jdbc.sql(
                        "INSERT INTO payment_attempts (attempt_id, order_id, state, amount_cents) VALUES (:p, :o, 'PENDING', :a)")
                .param("p", attemptId.value())
                .param("o", orderId.value())
                .param("a", hold.amountCents())
                .update();
        events.publishEvent(new PaymentRequested(attemptId, orderId, hold.amountCents()));
        meters.counter(ORDERS_METRIC, "state", "created").increment();
        return new Placement(
                findBy("o.order_id = :o", q -> q.param("o", orderId.value())).orElseThrow(), true);
    }

    @Transactional(readOnly = true)
    public Optional<Order> find(EventId event, OrderId id) {
        return findBy(
                "o.order_id = :o AND o.event_id = :e",
                q -> q.param("o", id.value()).param("e", event.value()));
    }

    /**
     * Applies the provider's outcome inside the caller's transaction. Only a PENDING attempt changes: a repeated or
     * late outcome for a decided attempt has no effect.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public PaymentApplied applyPayment(PaymentAttemptId attemptId, PaymentOutcome outcome, long amountCents) {
        AttemptRow attempt = jdbc.sql("SELECT order_id, state, amount_cents FROM payment_attempts "
                        + "WHERE attempt_id = :p FOR UPDATE")
                .param("p", attemptId.value())
                .query((rs, n) -> new AttemptRow(
                        new OrderId(rs.getObject(1, UUID.class)), PaymentState.valueOf(rs.getString(2)), rs.getLong(3)))
                .optional()
                .orElseThrow(
                        () -> new ProblemException(ProblemType.WEBHOOK_UNKNOWN_PAYMENT, "no such payment attempt"));
        if (attempt.amountCents() != amountCents) {
            throw new ProblemException(
                    ProblemType.WEBHOOK_AMOUNT_MISMATCH, "the amount differs from the payment attempt");
        }
        Order order = findBy(
                        "o.order_id = :o", q -> q.param("o", attempt.orderId().value()))
                .orElseThrow();
        if (attempt.state() != PaymentState.PENDING || order.state() != OrderState.PENDING_PAYMENT) {
            return new PaymentApplied(order.id(), order.state(), PaymentApplied.Effect.NONE);
        }
        PaymentState paymentState = attempt.state()
                .moveTo(outcome == PaymentOutcome.SUCCEEDED ? PaymentState.SUCCEEDED : PaymentState.FAILED);
        if (jdbc.sql(
                                "UPDATE payment_attempts SET state = :to, completed_at = now() WHERE attempt_id = :p AND state = :from")
                        .param("to", paymentState.name())
                        .param("p", attemptId.value())
                        .param("from", attempt.state().name())
                        .update()
                != 1) {
            throw new IllegalStateException("payment attempt changed while locked");
        }
        meters.counter(PAYMENTS_METRIC, "outcome", paymentState.name().toLowerCase(java.util.Locale.ROOT))
                .increment();
        if (paymentState == PaymentState.FAILED) {
            transition(order, OrderState.PAYMENT_FAILED);
            meters.counter(CHECKOUTS_METRIC, "outcome", "payment_failed").increment();
            return new PaymentApplied(order.id(), OrderState.PAYMENT_FAILED, PaymentApplied.Effect.PAYMENT_FAILED);
        }
        SaleOutcome sold = sale.sell(order.eventId(), order.holdId(), order.id().value());
        if (sold == SaleOutcome.SOLD) {
            transition(order, OrderState.PAID);
            outbox.purchaseCompleted(
                    order.eventId(), order.owner().sessionId(), order.id().value());
            meters.counter(CHECKOUTS_METRIC, "outcome", "completed").increment();
            return new PaymentApplied(order.id(), OrderState.PAID, PaymentApplied.Effect.PAID);
        }
        transition(order, OrderState.VOIDED);
        jdbc.sql("""
                INSERT INTO refunds (refund_id, order_id, attempt_id, amount_cents, reason)
                VALUES (:r, :o, :p, :a, 'SEATS_NO_LONGER_AVAILABLE')
                """)
                .param("r", UUID.randomUUID())
                .param("o", order.id().value())
                .param("p", attemptId.value())
                .param("a", attempt.amountCents())
                .update();
        meters.counter(PAYMENTS_METRIC, "outcome", "refunded").increment();
        meters.counter(CHECKOUTS_METRIC, "outcome", "voided").increment();
        return new PaymentApplied(order.id(), OrderState.VOIDED, PaymentApplied.Effect.VOIDED);
    }

    private void transition(Order order, OrderState target) {
        OrderState to = order.state().moveTo(target);
        int changed = jdbc.sql(
                        "UPDATE orders SET state = :to, updated_at = now() WHERE order_id = :o AND state = :from")
                .param("to", to.name())
                .param("o", order.id().value())
                .param("from", order.state().name())
                .update();
        if (changed != 1) {
            throw new IllegalStateException("order changed while its payment attempt was locked");
        }
    }

    private Optional<Order> findBy(String where, java.util.function.UnaryOperator<JdbcClient.StatementSpec> params) {
        return params.apply(jdbc.sql("""
                SELECT o.order_id, o.event_id, o.hold_id, o.session_id, o.visitor, o.state, o.amount_cents,
                       o.created_at, o.updated_at,
                       p.attempt_id, p.state AS payment_state, p.amount_cents AS payment_amount,
                       r.amount_cents AS refund_amount, r.reason AS refund_reason, r.created_at AS refunded_at
                FROM orders o
                JOIN LATERAL (SELECT * FROM payment_attempts pa WHERE pa.order_id = o.order_id
                              ORDER BY pa.created_at DESC LIMIT 1) p ON true
                LEFT JOIN refunds r ON r.order_id = o.order_id
                WHERE\s""" + where))
                .query((rs, n) -> new Order(
                        new OrderId(rs.getObject("order_id", UUID.class)),
                        EventId.of(rs.getString("event_id")),
                        new HoldId(rs.getObject("hold_id", UUID.class)),
                        new HoldOwner(rs.getString("session_id"), rs.getString("visitor")),
                        OrderState.valueOf(rs.getString("state")),
                        rs.getLong("amount_cents"),
                        seatsOf(rs.getObject("hold_id", UUID.class)),
                        instant(rs, "created_at"),
                        instant(rs, "updated_at"),
                        new Order.Payment(
                                new PaymentAttemptId(rs.getObject("attempt_id", UUID.class)),
                                PaymentState.valueOf(rs.getString("payment_state")),
                                rs.getLong("payment_amount")),
                        rs.getString("refund_reason") == null
                                ? Optional.empty()
                                : Optional.of(new Order.Refund(
                                        rs.getLong("refund_amount"),
                                        rs.getString("refund_reason"),
                                        instant(rs, "refunded_at")))))
                .optional();
    }

    private List<String> seatsOf(UUID holdId) {
        return jdbc.sql("SELECT seat_id FROM hold_seats WHERE hold_id = :h ORDER BY seat_id")
                .param("h", holdId)
                .query(String.class)
                .list();
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    private record AttemptRow(OrderId orderId, PaymentState state, long amountCents) {}
}
