package dev.waitroom.booking.access;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.tokens.ShopAssertion;
import dev.waitroom.tokens.ShopAssertionCodec;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;

/**
 * The gateway's per-request assertion on a shop request ({@link Headers#ASSERTION}, docs/security/booking.md):
 * checked once, as the request arrives ({@link ShopAssertionFilter}, before injected latency or a slow body could
 * age it), and kept in a request attribute for {@link AdmissionInterceptor}, which holds it against the admission
 * token. A request the filter did not see as a shop route is checked when the interceptor asks.
 */
final class GatewayAssertions {

    static final String ATTRIBUTE = GatewayAssertions.class.getName() + ".assertion";

    private final ShopAssertionCodec codec;
    private final Clock clock;
    private final MeterRegistry meters;

    GatewayAssertions(ShopAssertionCodec codec, Clock clock, MeterRegistry meters) {
        this.codec = codec;
        this.clock = clock;
        this.meters = meters;
    }

    /** The request's verified assertion, verifying it now if nothing has yet; a refusal is a 401 problem. */
    ShopAssertion of(HttpServletRequest request) {
        if (request.getAttribute(ATTRIBUTE) instanceof ShopAssertion verified) {
            return verified;
        }
        ShopAssertion verified = verify(request);
        request.setAttribute(ATTRIBUTE, verified);
        return verified;
    }

    private ShopAssertion verify(HttpServletRequest request) {
        String assertion = request.getHeader(Headers.ASSERTION);
        if (assertion == null || assertion.isEmpty()) {
            reject("missing");
            throw new ProblemException(
                    ProblemType.GATEWAY_ASSERTION_REQUIRED, "shop requests are accepted only through the gateway");
        }
        try {
            return codec.verify(assertion, request.getMethod(), request.getRequestURI(), clock.instant());
        } catch (TokenRejectedException rejected) {
            String reason = rejected.reason().name().toLowerCase(Locale.ROOT).replace('_', '-');
            reject(reason);
            throw invalid(reason, "gateway assertion refused: " + reason.replace('-', ' '));
        }
    }

    /**
     * The assertion is authentic but does not fit the request's admission.
     *
     * @param reason a stable slug: {@code other-event}, {@code other-session}, {@code other-scope}, ...
     */
    ProblemException mismatch(String reason, String detail) {
        reject(reason);
        return invalid(reason, detail);
    }

    private static ProblemException invalid(String reason, String detail) {
        return new ProblemException(ProblemType.GATEWAY_ASSERTION_INVALID, detail, Map.of("reason", reason));
    }

    private void reject(String reason) {
        meters.counter("waitroom.booking.admission.rejections", "reason", "assertion-" + reason)
                .increment();
    }
}
