package dev.waitroom.booking.signals;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.HealthReport;
import dev.waitroom.contract.coordinator.SeatCategories;
import java.util.UUID;

/**
 * What the booking service tells the admission coordinator (CONTRACTS "coordinator internal API"). Every method
 * throws {@link CoordinatorUnreachableException} when the call did not get through (callers retry on their next
 * tick) and {@link CoordinatorRefusedException} when the coordinator answered that it will never accept it (4xx).
 */
public interface CoordinatorSignals {

    void health(HealthReport report);

    void soldOut(EventId event, String reason);

    /** Seats that can be taken now, per category ({@code PUT}: the coordinator keeps the latest). */
    void categories(EventId event, SeatCategories categories);

    void purchaseCompleted(EventId event, String sessionId, UUID orderId);

    final class CoordinatorRefusedException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final int status;

        public CoordinatorRefusedException(int status) {
            super("coordinator refused the call with " + status, null, false, false);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    final class CoordinatorUnreachableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public CoordinatorUnreachableException(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }
}
