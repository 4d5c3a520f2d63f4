package dev.waitroom.booking.orders.web;

import dev.waitroom.booking.access.OrderScopedAccess;
import dev.waitroom.booking.access.Shopper;
import dev.waitroom.booking.holds.HoldId;
import dev.waitroom.booking.holds.HoldOwner;
import dev.waitroom.booking.orders.IdempotencyKey;
import dev.waitroom.booking.orders.Order;
import dev.waitroom.booking.orders.OrderId;
import dev.waitroom.booking.orders.Orders;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Checkout: an order from a hold, with a payment attempt; and the order's status. */
@RestController
@RequestMapping("/events/{eventId}/shop/orders")
class OrdersController {

    private final Orders orders;

    OrdersController(Orders orders) {
        this.orders = orders;
    }

    @PostMapping
    ResponseEntity<OrderResponse> place(
            @PathVariable String eventId,
            @RequestBody OrderRequest request,
            @RequestHeader(name = Headers.IDEMPOTENCY_KEY, required = false) String idempotencyKey,
            Shopper shopper) {
        EventId event = shopper.shoppingEvent();
        if (request == null || request.holdId() == null) {
            throw new IllegalArgumentException("holdId is required");
        }
        HoldId hold = HoldId.parse(request.holdId());
        Optional<IdempotencyKey> key = Optional.ofNullable(idempotencyKey).map(IdempotencyKey::new);
        Orders.Placement placement =
                orders.place(event, new HoldOwner(shopper.sessionId(), shopper.visitor()), hold, key);
        Order order = placement.order();
        return ResponseEntity.status(placement.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .location(URI.create("/events/" + order.eventId().value() + "/shop/orders/" + order.id()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(OrderResponse.of(order));
    }

    /**
     * Readable by the shopper's live session, by a later session of the same visitor, and (order-scoped access) by
     * the expired token of the session that placed it: a payment under way must stay resolvable.
     */
    @OrderScopedAccess
    @GetMapping("/{orderId}")
    ResponseEntity<OrderResponse> status(@PathVariable String eventId, @PathVariable String orderId, Shopper shopper) {
        EventId event = shopper.eventId();
        Order order = orders.find(event, OrderId.parse(orderId))
                .filter(o -> belongsTo(o, shopper))
                .orElseThrow(() -> new ProblemException(ProblemType.ORDER_NOT_FOUND, "no such order"));
        return ResponseEntity.ok().header(HttpHeaders.CACHE_CONTROL, "no-store").body(OrderResponse.of(order));
    }

    private static boolean belongsTo(Order order, Shopper shopper) {
        boolean sameSession = order.owner().sessionId().equals(shopper.sessionId());
        return switch (shopper.scope()) {
            case SHOPPING -> sameSession || order.owner().visitor().equals(shopper.visitor());
            case ORDER_STATUS_ONLY -> sameSession;
        };
    }

    record OrderRequest(String holdId) {}

    record OrderResponse(
            String orderId,
            String eventId,
            String holdId,
            String state,
            long amountCents,
            List<String> seatIds,
            Instant createdAt,
            Instant updatedAt,
            PaymentView payment,
            RefundView refund) {

        static OrderResponse of(Order order) {
            return new OrderResponse(
                    order.id().toString(),
                    order.eventId().value(),
                    order.holdId().toString(),
                    order.state().name(),
                    order.amountCents(),
                    order.seatIds(),
                    order.createdAt(),
                    order.updatedAt(),
                    new PaymentView(
                            order.payment().attemptId().toString(),
                            order.payment().state().name(),
                            order.payment().amountCents()),
                    order.refund()
                            .map(r -> new RefundView(r.amountCents(), r.reason(), r.createdAt()))
                            .orElse(null));
        }
    }

    record PaymentView(String attemptId, String state, long amountCents) {}

    record RefundView(long amountCents, String reason, Instant createdAt) {}
}
