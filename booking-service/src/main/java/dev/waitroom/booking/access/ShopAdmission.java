package dev.waitroom.booking.access;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.verifier.VerifiedAdmission;
import dev.waitroom.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shopper of a shop request, from the gateway's verified {@code Waitroom-Admission} header alone
 * (docs/design/security/booking.md): the verifier's filter proved the gateway signed it for this origin, this method and raw
 * path, seconds ago, after checking the admission token and the session's liveness (or BYPASS); here its claims are
 * held against the route. Booking sees no admission token and no Waitroom cookie: the gateway never forwards them.
 */
final class ShopAdmission {

    private static final Logger log = LoggerFactory.getLogger(ShopAdmission.class);

    private final SaleGenerations generations;
    private final MeterRegistry meters;

    ShopAdmission(SaleGenerations generations, MeterRegistry meters) {
        this.generations = generations;
        this.meters = meters;
    }

    /**
     * The header must be for this event. {@code shopping} shops (unless a newer sale generation has been seen, then
     * it may only read its orders), {@code order-status} reads an order on an {@link OrderScopedAccess} route only,
     * {@code bypass} shops under the gateway's BYPASS session of the verified visitor.
     */
    Shopper admit(HttpServletRequest request, EventId event, boolean orderScoped) {
        if (!(request.getAttribute(VerifiedAdmission.ATTRIBUTE) instanceof VerifiedAdmission admission)) {
            // the filter guards every path under /events/: only a mapping mistake gets here
            throw refused("missing", "shop requests are accepted only with the gateway's Waitroom-Admission header");
        }
        if (!admission.eventId().equals(event.value())) {
            reject("wrong-event");
            throw new ProblemException(ProblemType.ADMISSION_WRONG_EVENT, "the admission is for another event");
        }
        return switch (admission.scope()) {
            case "bypass" -> bypassShopper(event, admission);
            case "order-status" -> {
                if (!orderScoped) {
                    throw refused("other-scope", "the gateway admitted this request only for reading an order");
                }
                yield shopper(event, admission, Shopper.AccessScope.ORDER_STATUS_ONLY);
            }
            case "shopping" -> shopping(event, admission, orderScoped);
            default -> throw refused("other-scope", "unknown admission scope");
        };
    }

    /** Once a newer sale's admission has been seen, an older sale's may only follow its orders. */
    private Shopper shopping(EventId event, VerifiedAdmission admission, boolean orderScoped) {
        if (admission.saleGeneration() < generations.current(event)) {
            if (orderScoped) {
                return shopper(event, admission, Shopper.AccessScope.ORDER_STATUS_ONLY);
            }
            throw refused("old-generation", "the admission is from an earlier sale");
        }
        generations.observe(event, admission.saleGeneration());
        return shopper(event, admission, Shopper.AccessScope.SHOPPING);
    }

    /**
     * BYPASS mode is an ops decision taken at the edge: the gateway lets shoppers through without a token and says so
     * in the signed header's scope, for the visitor of its verified cookie; a client can forge none of it.
     */
    private Shopper bypassShopper(EventId event, VerifiedAdmission admission) {
        meters.counter("waitroom.booking.admission.bypassed").increment();
        log.warn(
                "BYPASS: shop request admitted without a token for event {} (ops turned the queue off)", event.value());
        return shopper(event, admission, Shopper.AccessScope.SHOPPING);
    }

    private static Shopper shopper(EventId event, VerifiedAdmission admission, Shopper.AccessScope scope) {
        return new Shopper(event, admission.sessionId(), admission.visitor(), scope);
    }

    private ProblemException refused(String reason, String detail) {
        reject(reason);
        return new ProblemException(ProblemType.ADMISSION_HEADER_INVALID, detail, Map.of("reason", reason));
    }

    private void reject(String reason) {
        meters.counter("waitroom.booking.admission.rejections", "reason", reason)
                .increment();
    }
}
