package dev.waitroom.booking.access;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import java.util.Map;
import java.util.Objects;

/**
 * Who is calling a shop route, as proven by the gateway's verified {@code Waitroom-Admission} header.
 *
 * @param scope what the admission allows: shopping, or (an {@code order-status} one, or an older sale's) reading an
 *              order of its session
 */
public record Shopper(EventId eventId, String sessionId, String visitor, AccessScope scope) {

    public Shopper {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(visitor, "visitor");
        Objects.requireNonNull(scope, "scope");
    }

    /** The event of a route that shops (browse, hold, order); an admission that only reads order status is refused. */
    public EventId shoppingEvent() {
        if (scope != AccessScope.SHOPPING) {
            throw new ProblemException(
                    ProblemType.ADMISSION_HEADER_INVALID,
                    "the shopping session has expired",
                    Map.of("reason", "other-scope"));
        }
        return eventId;
    }

    /** What an admission allows. */
    public enum AccessScope {
        /** A live shopping session: browse, hold, order. */
        SHOPPING,
        /** The session has expired, ended or belongs to an older sale: only the status of an order it started. */
        ORDER_STATUS_ONLY
    }

    @Override
    public String toString() {
        return "Shopper[eventId=" + eventId + ", scope=" + scope + "]";
    }
}
