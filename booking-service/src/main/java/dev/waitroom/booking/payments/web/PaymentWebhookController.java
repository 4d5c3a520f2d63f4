package dev.waitroom.booking.payments.web;

import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.payments.PaymentWebhook;
import dev.waitroom.booking.payments.PaymentWebhooks;
import dev.waitroom.booking.payments.WebhookSignature;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Payment provider callbacks. No admission token (the provider is not a shopper); the HMAC signature over the raw
 * body is checked before the body is even parsed.
 */
@RestController
class PaymentWebhookController {

    private final PaymentWebhooks webhooks;
    private final WebhookSignature signature;
    private final JsonMapper json;
    private final MeterRegistry meters;

    PaymentWebhookController(
            PaymentWebhooks webhooks, SecurityProperties security, JsonMapper json, MeterRegistry meters) {
        this.webhooks = webhooks;
        this.signature = WebhookSignature.of(security.webhookKey());
        this.json = json;
        this.meters = meters;
    }

    @PostMapping("/webhooks/payments")
    ResponseEntity<WebhookResponse> receive(
            @RequestBody(required = false) byte[] body,
            @RequestHeader(name = Headers.PAYMENT_SIGNATURE, required = false) String presented) {
        byte[] raw = body == null ? new byte[0] : body;
        if (!signature.matches(presented, raw)) {
            meters.counter("waitroom.booking.webhooks", "result", "bad_signature")
                    .increment();
            throw new ProblemException(
                    ProblemType.WEBHOOK_SIGNATURE_INVALID,
                    "the " + Headers.PAYMENT_SIGNATURE + " header does not match the body");
        }
        PaymentWebhook webhook;
        try {
            webhook = json.readValue(raw, PaymentWebhook.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the webhook body is not valid JSON of the expected shape");
        }
        if (webhook == null) {
            throw new IllegalArgumentException("the webhook body is empty");
        }
        webhook.validate();
        PaymentWebhooks.Result result = webhooks.apply(webhook);
        meters.counter("waitroom.booking.webhooks", "result", result.duplicate() ? "duplicate" : "applied")
                .increment();
        return ResponseEntity.ok(new WebhookResponse(
                result.webhookId(),
                result.effect(),
                result.duplicate(),
                result.orderId().map(Object::toString).orElse(null),
                result.orderState()));
    }

    record WebhookResponse(String webhookId, String effect, boolean duplicate, String orderId, String orderState) {}
}
