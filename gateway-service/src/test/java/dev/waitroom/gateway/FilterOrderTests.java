package dev.waitroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.web.server.WebFilter;

/**
 * The gateway's filter chain in the order the running gateway builds it (issue #32): every filter of ours takes its
 * number from {@link FilterOrder}, no two share one, and the sequence below is the one a request meets. Reordering a
 * filter, or adding one, changes this test on purpose.
 */
@GatewayIntegrationTest
class FilterOrderTests {

    @Autowired
    List<WebFilter> webFilters;

    @Autowired
    List<GlobalFilter> globalFilters;

    @Test
    void theWebFiltersRunInTheDocumentedOrder() {
        assertThat(ours(webFilters))
                .containsExactly(
                        "EdgeStatusWebFilter",
                        "RequestIdWebFilter",
                        "ForwardAuthWebFilter",
                        "PathSafetyWebFilter",
                        "BodyLimitWebFilter",
                        "VisitorIdentityWebFilter",
                        "AccountWebFilter",
                        "ClaimAccountWebFilter");
    }

    @Test
    void theGlobalFiltersOfOursSitWhereTheConstantsPutThem() {
        List<String> order = ours(globalFilters);
        assertThat(order)
                .containsSubsequence(
                        "QueueTicketCookieGlobalFilter",
                        "AdmissionCookieGlobalFilter",
                        "AdmissionHeaderGlobalFilter",
                        "InternalCredentialGlobalFilter",
                        "EdgeCookiesGlobalFilter",
                        "Answer",
                        "OriginHealthGlobalFilter");
        // Spring Cloud Gateway's own routing filter comes after every filter of ours that must see the request
        List<String> all = new ArrayList<>();
        List<Object> sorted = new ArrayList<>(globalFilters);
        AnnotationAwareOrderComparator.sort(sorted);
        sorted.forEach(f -> all.add(f.getClass().getSimpleName()));
        assertThat(all.indexOf("NettyRoutingFilter")).isGreaterThan(all.indexOf("OriginHealthGlobalFilter"));
        assertThat(all.indexOf("RouteToRequestUrlFilter")).isLessThan(all.indexOf("AdmissionHeaderGlobalFilter"));
    }

    @Test
    void noTwoFiltersOfOursShareANumber() {
        List<Object> filters = new ArrayList<>(webFilters);
        filters.addAll(globalFilters);
        Set<Integer> seen = new HashSet<>();
        for (Object f : filters) {
            if (f instanceof Ordered o && f.getClass().getName().startsWith("dev.waitroom.gateway.")) {
                assertThat(seen.add(o.getOrder()))
                        .as(
                                "%s shares order %d with another filter",
                                f.getClass().getSimpleName(), o.getOrder())
                        .isTrue();
            }
        }
    }

    /** Our filters, sorted as Spring sorts them, by simple name. */
    private static List<String> ours(List<?> beans) {
        List<Object> sorted = new ArrayList<>(beans);
        AnnotationAwareOrderComparator.sort(sorted);
        List<String> names = new ArrayList<>();
        for (Object f : sorted) {
            if (f.getClass().getName().startsWith("dev.waitroom.gateway.")) {
                names.add(f.getClass().getSimpleName());
            }
        }
        return names;
    }
}
