package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.tokens.AdmissionHeader;
import java.time.Clock;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Sends the origin {@code Waitroom-Admission} for a request the admission filter passed, signed for exactly its
 * method and raw path; on every other forwarded request drops a client's copy, so only the gateway's ever arrives.
 * One Ed25519 signature (50-90 µs, docs/integration/admission-header.md) per forwarded shop request, none elsewhere.
 */
@Component
class AdmissionHeaderGlobalFilter implements GlobalFilter, Ordered {

    private final AdmissionHeaders headers;
    private final Clock clock;

    AdmissionHeaderGlobalFilter(AdmissionHeaders headers, Clock clock) {
        this.headers = headers;
        this.clock = clock;
    }

    @Override
    public int getOrder() {
        // after the route's admission filter, beside the internal-credential filter
        return FilterOrder.ADMISSION_HEADER;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        CheckedRequest checked = exchange.getAttribute(AdmissionTokenGatewayFilterFactory.CHECKED_ATTRIBUTE);
        String value = checked == null ? null : headers.sign(checked, clock.instant());
        if (value == null && !exchange.getRequest().getHeaders().containsHeader(AdmissionHeader.NAME)) {
            return chain.filter(exchange);
        }
        return chain.filter(exchange.mutate()
                .request(r -> r.headers(h -> {
                    if (value != null) {
                        h.set(AdmissionHeader.NAME, value);
                    } else {
                        h.remove(AdmissionHeader.NAME);
                    }
                }))
                .build());
    }
}
