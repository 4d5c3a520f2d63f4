package dev.waitroom.booking.payments.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.orders.OrderId;
import dev.waitroom.booking.orders.OverduePayments;
import dev.waitroom.booking.orders.PaymentAttemptId;
import dev.waitroom.booking.orders.PaymentOverdue;
import dev.waitroom.booking.orders.PaymentRequested;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reconciliation of payment attempts that never report (chaos run seed 31, 5 minutes: booking killed with the
 * simulator's pending webhooks in its memory). The attempts are read from PostgreSQL, asked about once per bound by
 * one sweep of any number, and the simulator's answer carries the attempt's webhook id again, so an order is paid
 * once. The shared context's own sweep uses the default 30 s bound; these tests claim with bounds of a few seconds, so
 * it never takes their attempts first.
 */
class PaymentReconciliationTests extends ShopTestSupport {

    private static final Duration BOUND = Duration.ofSeconds(3);

    @Autowired
    SecurityProperties security;

    @Autowired
    OverduePayments overduePayments;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    MeterRegistry meters;

    private FakePaymentProvider provider(Duration delay) {
        return new FakePaymentProvider(
                new FakePaymentProviderProperties(
                        FakePaymentProviderProperties.Behaviour.SUCCEED,
                        delay,
                        URI.create("http://127.0.0.1:" + port + "/webhooks/payments")),
                security,
                json);
    }

    private static PaymentRequested requested(Checkout checkout) {
        return new PaymentRequested(
                PaymentAttemptId.parse(checkout.attemptId()),
                OrderId.parse(checkout.orderId()),
                checkout.amountCents());
    }

    /** One sweep's claim with {@code bound}, narrowed to the checkout's attempt (others' attempts are claimed too). */
    private List<PaymentOverdue> claimed(Duration bound, Checkout checkout) {
        return mine(overduePayments.claim(bound, 10_000), checkout);
    }

    private static List<PaymentOverdue> mine(List<PaymentOverdue> claimed, Checkout checkout) {
        return claimed.stream()
                .filter(o -> o.attemptId().toString().equals(checkout.attemptId()))
                .toList();
    }

    private int reconciliations(Checkout checkout) {
        return count("SELECT reconciliations FROM payment_attempts WHERE attempt_id = ?::uuid", checkout.attemptId());
    }

    private String orderState(Checkout checkout) {
        return jdbc.sql("SELECT state FROM orders WHERE order_id = ?::uuid")
                .param(checkout.orderId())
                .query(String.class)
                .single();
    }

    private void awaitOverdue(Checkout checkout, Duration bound) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> count(
                                "SELECT count(*) FROM payment_attempts WHERE attempt_id = ?::uuid"
                                        + " AND created_at <= now() - make_interval(secs => ?)",
                                checkout.attemptId(),
                                bound.toMillis() / 1000.0)
                        == 1);
    }

    @Test
    void anAttemptWhoseWebhookWasLostWithTheJvmIsPaidByTheSweepAfterTheBoundExactlyOnce() {
        String event = newEvent("reconcilelost", 1);
        Checkout checkout = checkout(event, "A-1");
        // The webhook waits in the simulator's memory and dies with it, as with a kill -9 of booking.
        FakePaymentProvider killed = provider(Duration.ofHours(1));
        killed.onPaymentRequested(requested(checkout));
        killed.destroy();
        // As after the restart: a new simulator that remembers nothing; the attempt is in PostgreSQL.
        FakePaymentProvider restarted = provider(Duration.ofHours(1));
        try {
            List<PaymentOverdue> overdue = await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> claimed(BOUND, checkout), claims -> !claims.isEmpty());
            assertThat(overdue).hasSize(1);
            assertThat(count(
                            "SELECT count(*) FROM payment_attempts WHERE attempt_id = ?::uuid"
                                    + " AND reconciled_at - created_at >= make_interval(secs => ?)",
                            checkout.attemptId(),
                            BOUND.toMillis() / 1000.0))
                    .as("asked about only after the bound")
                    .isEqualTo(1);
            assertThat(orderState(checkout)).isEqualTo("PENDING_PAYMENT");

            restarted.onPaymentOverdue(overdue.get(0));

            await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(orderState(checkout)));
            assertThat(seatState(event, "A-1")).isEqualTo("SOLD");
            assertThat(jdbc.sql("SELECT webhook_id FROM processed_webhooks WHERE attempt_id = ?::uuid")
                            .param(checkout.attemptId())
                            .query(String.class)
                            .list())
                    .containsExactly(FakePaymentProvider.webhookId(PaymentAttemptId.parse(checkout.attemptId())));
            assertThat(count("SELECT count(*) FROM sold_seats WHERE order_id = ?::uuid", checkout.orderId()))
                    .isEqualTo(1);
            assertThat(count(
                            "SELECT count(*) FROM coordinator_outbox WHERE kind = 'PURCHASE_COMPLETED'"
                                    + " AND order_id = ?::uuid",
                            checkout.orderId()))
                    .isEqualTo(1);
            assertThat(claimed(Duration.ofSeconds(1), checkout))
                    .as("a paid attempt is not asked about again")
                    .isEmpty();
            assertThat(reconciliations(checkout)).isEqualTo(1);
        } finally {
            restarted.destroy();
        }
    }

    @Test
    void aReDriveOfAnAlreadyPaidAttemptIsADuplicateAndChangesNothing() {
        String event = newEvent("reconcilepaid", 1);
        Checkout checkout = checkout(event, "A-1");
        FakePaymentProvider provider = provider(Duration.ofMillis(100));
        try {
            provider.onPaymentRequested(requested(checkout));
            await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(orderState(checkout)));
            var before = jdbc.sql("SELECT state, updated_at FROM orders WHERE order_id = ?::uuid")
                    .param(checkout.orderId())
                    .query()
                    .singleRow();
            double duplicates = meters.counter("waitroom.booking.webhooks", "result", "duplicate")
                    .count();

            // The sweep's question crossed the original webhook: the simulator answers again, same webhook id.
            provider.onPaymentOverdue(new PaymentOverdue(
                    PaymentAttemptId.parse(checkout.attemptId()),
                    OrderId.parse(checkout.orderId()),
                    checkout.amountCents(),
                    1));

            await().atMost(Duration.ofSeconds(15))
                    .until(() -> meters.counter("waitroom.booking.webhooks", "result", "duplicate")
                                    .count()
                            > duplicates);
            assertThat(jdbc.sql("SELECT state, updated_at FROM orders WHERE order_id = ?::uuid")
                            .param(checkout.orderId())
                            .query()
                            .singleRow())
                    .isEqualTo(before);
            assertThat(count(
                            "SELECT count(*) FROM processed_webhooks WHERE attempt_id = ?::uuid AND effect = 'PAID'",
                            checkout.attemptId()))
                    .isEqualTo(1);
            assertThat(count(
                            "SELECT count(*) FROM processed_webhooks WHERE attempt_id = ?::uuid", checkout.attemptId()))
                    .isEqualTo(1);
            assertThat(count("SELECT count(*) FROM sold_seats WHERE order_id = ?::uuid", checkout.orderId()))
                    .isEqualTo(1);
            assertThat(count("SELECT count(*) FROM refunds WHERE order_id = ?::uuid", checkout.orderId()))
                    .isZero();
            assertThat(count(
                            "SELECT count(*) FROM coordinator_outbox WHERE kind = 'PURCHASE_COMPLETED'"
                                    + " AND order_id = ?::uuid",
                            checkout.orderId()))
                    .isEqualTo(1);
            assertThat(claimed(Duration.ofSeconds(1), checkout)).isEmpty();
        } finally {
            provider.destroy();
        }
    }

    /** Two replicas sweeping at once: of four concurrent claims, one asks about the attempt. */
    @Test
    void concurrentSweepsAskAboutAnOverdueAttemptOnce() throws Exception {
        String event = newEvent("reconcileraced", 1);
        Checkout checkout = checkout(event, "A-1");
        awaitOverdue(checkout, BOUND);

        int sweeps = 4;
        CyclicBarrier start = new CyclicBarrier(sweeps);
        ExecutorService pool = Executors.newFixedThreadPool(sweeps);
        try {
            List<Future<List<PaymentOverdue>>> claims = new ArrayList<>();
            for (int i = 0; i < sweeps; i++) {
                claims.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return claimed(BOUND, checkout);
                }));
            }
            int asked = 0;
            for (Future<List<PaymentOverdue>> claim : claims) {
                asked += claim.get(30, TimeUnit.SECONDS).size();
            }
            assertThat(asked).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(reconciliations(checkout)).isEqualTo(1);
        assertThat(claimed(BOUND, checkout)).as("asked once per bound").isEmpty();
        assertThat(orderState(checkout)).isEqualTo("PENDING_PAYMENT");
    }

    /**
     * A replica whose claim has not committed yet holds the attempt: another replica's sweep skips it without waiting,
     * and once the first commits, finds it stamped.
     */
    @Test
    void aSweepSkipsAnAttemptAnotherReplicaIsClaimingAndDoesNotRepeatIt() throws Exception {
        String event = newEvent("reconcilelocked", 1);
        Checkout checkout = checkout(event, "A-1");
        awaitOverdue(checkout, BOUND);

        List<PaymentOverdue> first = transactions.execute(tx -> {
            List<PaymentOverdue> mine = claimed(BOUND, checkout);
            List<PaymentOverdue> other;
            try {
                other = CompletableFuture.supplyAsync(() -> claimed(BOUND, checkout))
                        .get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the other sweep waited on the claimed attempt", e);
            }
            assertThat(other).as("skipped while locked").isEmpty();
            return mine;
        });
        assertThat(first).hasSize(1);
        assertThat(claimed(BOUND, checkout)).as("stamped once committed").isEmpty();
        assertThat(reconciliations(checkout)).isEqualTo(1);
    }

    /** The scheduled sweep reads overdue attempts from PostgreSQL with the configured bound (30 s here). */
    @Test
    void theScheduledSweepAsksAboutAnAttemptOverdueByTheConfiguredBound() {
        String event = newEvent("reconcilesweep", 1);
        Checkout checkout = checkout(event, "A-1");
        jdbc.sql("UPDATE payment_attempts SET created_at = created_at - interval '1 minute' WHERE attempt_id = ?::uuid")
                .param(checkout.attemptId())
                .update();
        await().atMost(Duration.ofSeconds(30)).until(() -> reconciliations(checkout) == 1);
        assertThat(orderState(checkout)).isEqualTo("PENDING_PAYMENT");
    }
}
