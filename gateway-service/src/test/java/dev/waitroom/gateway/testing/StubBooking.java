package dev.waitroom.gateway.testing;

import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.testsupport.StubReply;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The booking-service as far as the gateway sees it: shop routes in the shapes of the real
 * service (seats, holds, orders; an order is paid on its first status read), the payment
 * webhook and the inventory admin route. Every answer also says what the service received.
 */
public final class StubBooking extends StubHttpServer {

    StubBooking(String internalToken) {
        super(internalToken);
    }

    /**
     * Only booking's ops routes are Waitroom's (internal credential); its shop routes are an origin's, which gets no
     * credential but the {@code Waitroom-Admission} header, and the payment webhook is signed by the provider.
     */
    @Override
    protected boolean needsInternalCredential(RecordedRequest request) {
        return request.path().startsWith("/admin/");
    }

    @Override
    protected StubReply handle(RecordedRequest request) {
        String path = request.path();
        String[] s = segments(path);
        if (path.equals("/webhooks/payments")) {
            return StubReply.json(200, Map.of("served", "booking", "path", path));
        }
        if (path.startsWith("/admin/")) {
            return StubReply.json(200, Map.of("served", "booking", "path", path));
        }
        if (s.length >= 3 && s[0].equals("events") && s[2].equals("shop")) {
            String eventId = s[1];
            String rest = String.join("/", List.of(s).subList(3, s.length));
            if (rest.equals("seats") && request.method().equals("GET")) {
                return StubReply.json(
                        200,
                        Map.of(
                                "eventId",
                                eventId,
                                "categories",
                                List.of(Map.of("name", "Stalls", "priceCents", 4500, "seats", 3, "available", 3)),
                                "seats",
                                List.of(seat("A1"), seat("A2"), seat("A3"))));
            }
            if (rest.equals("holds") && request.method().equals("POST")) {
                return StubReply.json(
                        201,
                        Map.of(
                                "holdId",
                                UUID.randomUUID().toString(),
                                "eventId",
                                eventId,
                                "state",
                                "HELD",
                                "expiresAt",
                                Instant.now().plusSeconds(300).toString(),
                                "seatIds",
                                List.of("A1"),
                                "amountCents",
                                4500));
            }
            if (rest.equals("orders") && request.method().equals("POST")) {
                return StubReply.json(201, order(eventId, UUID.randomUUID().toString(), "PENDING_PAYMENT"));
            }
            if (rest.startsWith("orders/") && request.method().equals("GET")) {
                return StubReply.json(200, order(eventId, s[4], "PAID"));
            }
            Map<String, Object> echo = new LinkedHashMap<>();
            echo.put("served", "booking");
            echo.put("path", path);
            return StubReply.json(200, echo);
        }
        return StubReply.json(404, Map.of("status", 404, "title", "Not found"));
    }

    private static Map<String, Object> seat(String id) {
        return Map.of("seatId", id, "category", "Stalls", "priceCents", 4500);
    }

    private static Map<String, Object> order(String eventId, String orderId, String state) {
        return Map.of(
                "orderId",
                orderId,
                "eventId",
                eventId,
                "state",
                state,
                "amountCents",
                4500,
                "seatIds",
                List.of("A1"),
                "payment",
                Map.of(
                        "attemptId",
                        UUID.randomUUID().toString(),
                        "state",
                        state.equals("PAID") ? "SUCCEEDED" : "PENDING",
                        "amountCents",
                        4500));
    }
}
