package dev.waitroom.gateway;

import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.core.Ordered;

/**
 * The order of every filter of the gateway's own, in one place (issue #32): a request passes the web filters first
 * (every request, routed or not), lowest number first, then, on a route, the global filters around Spring Cloud
 * Gateway's own. Each filter's {@code getOrder()} returns its constant here; {@code FilterOrderTests} asserts the
 * chain the running gateway builds, so a new filter or a changed number shows as a changed sequence, not as a
 * surprise in production. Two filters never share a number: Spring's order between equals is the beans' order.
 */
public final class FilterOrder {

    private FilterOrder() {}

    // --- web filters: every request ------------------------------------------------------------------------------

    /** Status polls answered at the edge before anything else runs: the path of nearly every request of a sale. */
    public static final int EDGE_STATUS = Ordered.HIGHEST_PRECEDENCE;

    /** {@code X-Request-Id} kept or made, for every request after the edge's own answers. */
    public static final int REQUEST_ID = Ordered.HIGHEST_PRECEDENCE + 1;

    /** The forward-auth check a proxy in front asks (docs/integration/forward-auth.md). */
    public static final int FORWARD_AUTH = Ordered.HIGHEST_PRECEDENCE + 5;

    /** Dot segments, encoded separators and {@code ;} refused before any route matches. */
    public static final int PATH_SAFETY = Ordered.HIGHEST_PRECEDENCE + 10;

    /** Bodies only on routes that take one, and at most 64 KiB. */
    public static final int BODY_LIMIT = Ordered.HIGHEST_PRECEDENCE + 11;

    /** Client identity headers stripped, the visitor cookie verified or issued. */
    public static final int VISITOR_IDENTITY = Ordered.HIGHEST_PRECEDENCE + 20;

    /** A signed-in account's token verified, after the visitor is known. */
    public static final int ACCOUNT = Ordered.HIGHEST_PRECEDENCE + 25;

    /** A signed-in claim made under the visitor id the account's place is bound to, once the account is verified. */
    public static final int CLAIM_ACCOUNT = Ordered.HIGHEST_PRECEDENCE + 26;

    // --- global filters: routed requests ---------------------------------------------------------------------------

    /** {@code X-Waitroom-Ticket} from the queue-service turned into the {@code wr_qt} cookie. */
    public static final int QUEUE_TICKET_COOKIE = Ordered.HIGHEST_PRECEDENCE + 100;

    /** The claim's admission token turned into the per-event {@code wr_at} cookie. */
    public static final int ADMISSION_COOKIE = Ordered.HIGHEST_PRECEDENCE + 101;

    /** A protected route's origin URL, right after Spring Cloud Gateway resolved the route's URI. */
    public static final int ORIGIN_URL = RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER + 1;

    /** The signed {@code Waitroom-Admission} header for the shop, before the internal headers are settled. */
    public static final int ADMISSION_HEADER = Ordered.LOWEST_PRECEDENCE - 101;

    /** The gateway's own service credential on calls to Waitroom's services. */
    public static final int INTERNAL_CREDENTIAL = Ordered.LOWEST_PRECEDENCE - 100;

    /** The edge's cookies kept from upstream answers (only the gateway sets them). */
    public static final int EDGE_COOKIES = Ordered.LOWEST_PRECEDENCE - 99;

    /** The forward-auth answer written instead of routing. */
    public static final int FORWARD_AUTH_ANSWER = Ordered.LOWEST_PRECEDENCE - 50;

    /** The origin's outcome and latency counted around the call itself. */
    public static final int ORIGIN_HEALTH = NettyRoutingFilter.ORDER - 1;
}
