package dev.waitroom.booking.payments.simulator;

import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.orders.PaymentAttemptId;
import dev.waitroom.booking.orders.PaymentOutcome;
import dev.waitroom.booking.orders.PaymentOverdue;
import dev.waitroom.booking.orders.PaymentRequested;
import dev.waitroom.booking.payments.PaymentWebhook;
import dev.waitroom.booking.payments.WebhookSignature;
import dev.waitroom.contract.Headers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stands in for a real payment provider: after the configured delay it calls {@code POST /webhooks/payments} over
 * HTTP with the configured outcome, signed with the webhook secret, as a provider would (so the webhook path is the
 * real one). A failed call is retried with the same webhook id, backing off from 1 s to 5 s, for as long as a
 * provider keeps a webhook (ten minutes here; real ones retry for days): the route goes through the gateway, so a
 * gateway restarting for a minute must delay the payment, not leave its order awaiting payment for good (chaos run
 * seed 31 lost three webhooks to a killed gateway after four calls in 6 s). The backoff stays short because the order
 * waits on it: once the route is back, the payment lands within seconds.
 *
 * <p>Its pending webhooks live in booking's memory, so a kill -9 of booking loses them (chaos run seed 31, 5 minutes).
 * When booking's reconciliation asks about an attempt that has not reported ({@link PaymentOverdue}, read from
 * PostgreSQL, so also after a restart), it decides again and posts at once, with the same webhook id
 * ({@code fake-<attempt id>}, derived from the attempt, not remembered): if the first webhook did arrive, the second is
 * a duplicate and changes nothing. A re-drive replaces a delivery still retrying for the same attempt, so one attempt
 * never has two retry loops. Nothing else depends on it: without it ({@code waitroom.payments.fake.enabled=false})
 * payment attempts wait for whatever posts the webhooks.
 */
@Component
@ConditionalOnFakePaymentProvider
class FakePaymentProvider implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(FakePaymentProvider.class);
    /** How long a webhook is retried before it is given up, as a provider's retry window. */
    static final Duration GIVE_UP_AFTER = Duration.ofMinutes(10);

    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    private final FakePaymentProviderProperties properties;
    private final WebhookSignature signature;
    private final JsonMapper json;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1, r -> {
        Thread thread = new Thread(r, "fake-payment-provider");
        thread.setDaemon(true);
        return thread;
    });
    private final Duration firstBackoff;
    /** The delivery under way per attempt; a call of a delivery no longer here stops. */
    private final ConcurrentMap<PaymentAttemptId, Delivery> deliveries = new ConcurrentHashMap<>();

    private volatile URI webhookUrl;

    /** One webhook being delivered: its retries belong to it, and a re-drive of its attempt supersedes it. */
    private record Delivery(PaymentAttemptId attempt, PaymentWebhook webhook, Instant firstCall) {}

    @Autowired
    FakePaymentProvider(FakePaymentProviderProperties properties, SecurityProperties security, JsonMapper json) {
        this(properties, security, json, Duration.ofSeconds(1));
    }

    /** {@code firstBackoff}: the wait before the first retry, doubled for each next one up to 5 s. */
    FakePaymentProvider(
            FakePaymentProviderProperties properties,
            SecurityProperties security,
            JsonMapper json,
            Duration firstBackoff) {
        this.properties = properties;
        this.firstBackoff = firstBackoff;
        this.signature = WebhookSignature.of(security.webhookKey());
        this.json = json;
        this.webhookUrl = properties.webhookUrl();
    }

    @EventListener
    void onWebServer(WebServerInitializedEvent event) {
        // the management server (its own port) starts too; the webhook route is on the application's server
        if (properties.webhookUrl() == null
                && !"management".equals(event.getApplicationContext().getServerNamespace())) {
            webhookUrl = URI.create("http://127.0.0.1:" + event.getWebServer().getPort() + "/webhooks/payments");
        }
    }

    @TransactionalEventListener
    void onPaymentRequested(PaymentRequested payment) {
        deliver(payment.attemptId(), payment.amountCents(), properties.delay());
    }

    /** Booking's reconciliation asks again about an attempt with no outcome: decide again and post now. */
    @TransactionalEventListener
    void onPaymentOverdue(PaymentOverdue overdue) {
        deliver(overdue.attemptId(), overdue.amountCents(), Duration.ZERO);
    }

    /** The webhook id of an attempt's outcome: the same on every delivery, so a repeat is a duplicate. */
    static String webhookId(PaymentAttemptId attempt) {
        return "fake-" + attempt;
    }

    private void deliver(PaymentAttemptId attempt, long amountCents, Duration delay) {
        PaymentOutcome outcome = switch (properties.outcome()) {
            case SUCCEED -> PaymentOutcome.SUCCEEDED;
            case FAIL -> PaymentOutcome.FAILED;
            case MANUAL -> null;
        };
        if (outcome == null) {
            return;
        }
        PaymentWebhook webhook = new PaymentWebhook(webhookId(attempt), attempt.toString(), outcome, amountCents, null);
        Delivery delivery = new Delivery(attempt, webhook, Instant.now().plus(delay));
        deliveries.put(attempt, delivery);
        schedule(delivery, delay, 1);
    }

    private void schedule(Delivery delivery, Duration delay, int call) {
        scheduler.schedule(() -> call(delivery, call), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The wait after failed call number {@code call}: {@code first}, doubled each time, at most 5 s. */
    static Duration backoff(Duration first, int call) {
        Duration wait = first.multipliedBy(1L << Math.min(call - 1, 16));
        return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
    }

    /** Retries call number {@code call + 1} after its backoff, unless the webhook is past its retry window. */
    private boolean retry(Delivery delivery, int call) {
        Duration wait = backoff(firstBackoff, call);
        if (Instant.now().plus(wait).isAfter(delivery.firstCall().plus(GIVE_UP_AFTER))) {
            return false;
        }
        schedule(delivery, wait, call + 1);
        return true;
    }

    private void call(Delivery delivery, int call) {
        if (deliveries.get(delivery.attempt()) != delivery) {
            return; // superseded by a re-drive of the same attempt
        }
        if (!attempt(delivery, call)) {
            deliveries.remove(delivery.attempt(), delivery);
        }
    }

    /** One call; true if a retry is scheduled. */
    private boolean attempt(Delivery delivery, int call) {
        PaymentWebhook pending = delivery.webhook();
        PaymentWebhook webhook = new PaymentWebhook(
                pending.webhookId(),
                pending.paymentAttemptId(),
                pending.outcome(),
                pending.amountCents(),
                Instant.now());
        try {
            byte[] body = json.writeValueAsBytes(webhook);
            HttpRequest request = HttpRequest.newBuilder(webhookUrl)
                    .timeout(Duration.ofSeconds(5))
                    .header("Content-Type", "application/json")
                    .header(Headers.PAYMENT_SIGNATURE, signature.sign(body))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            int status =
                    http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status >= 500 && retry(delivery, call)) {
                return true;
            }
            if (status != 200) {
                log.warn("payment webhook answered {}", status);
            }
        } catch (IOException e) {
            if (retry(delivery, call)) {
                return true;
            }
            log.warn(
                    "payment webhook undeliverable after {} calls: {}",
                    call,
                    e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
    }
}
