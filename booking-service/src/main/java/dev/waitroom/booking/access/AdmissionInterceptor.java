package dev.waitroom.booking.access;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Guards every route under {@code /events/{eventId}/shop}: no handler runs without the gateway's verified {@code
 * Waitroom-Admission} header for that event ({@link ShopAdmission}). The verified {@link Shopper} is left in a request
 * attribute for {@link ShopperArgumentResolver}.
 */
final class AdmissionInterceptor implements HandlerInterceptor {

    static final String SHOPPER_ATTRIBUTE = AdmissionInterceptor.class.getName() + ".shopper";

    private final ShopAdmission admission;

    AdmissionInterceptor(ShopAdmission admission) {
        this.admission = admission;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        EventId event = eventOf(request.getRequestURI());
        boolean orderScoped =
                handler instanceof HandlerMethod method && method.hasMethodAnnotation(OrderScopedAccess.class);
        request.setAttribute(SHOPPER_ATTRIBUTE, admission.admit(request, event, orderScoped));
        return true;
    }

    /**
     * {@code /events/{eventId}/shop/...} -> the event id (a malformed one is {@code invalid-event-id}); the path has
     * already matched that shape.
     */
    private static EventId eventOf(String path) {
        String[] parts = path.split("/", 5);
        if (parts.length < 4 || !"events".equals(parts[1])) {
            throw new ProblemException(ProblemType.NOT_FOUND, "no such resource");
        }
        return EventId.of(parts[2]);
    }
}
