package dev.waitroom.gateway.identity;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.config.EdgeProperties;
import java.time.Duration;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Component;

/**
 * The names and attributes of the cookies the browser holds (docs/design/architecture.md#identity), in one place.
 *
 * <p>Each cookie has a canonical name ({@link #VISITOR}, {@link #TICKET}, {@link #ADMISSION}) and a name on the wire.
 * Served over HTTPS ({@code waitroom.gateway.secure-cookies}, the default) the wire names carry the prefix the browser
 * enforces: a {@code __Host-} cookie is accepted only with {@code Secure}, {@code Path=/} and no {@code Domain}, from a
 * secure origin, so neither a sibling subdomain nor a plain-http answer can plant or overwrite it (a planted visitor id
 * would let its planter claim the visitor's offer). The queue ticket is scoped to {@code Path=/events/{e}} (one ticket
 * per event a browser waits in), which {@code __Host-} forbids, so it takes {@code __Secure-}: Secure and set from a
 * secure origin only; a planted ticket still has to pass its HMAC. The admission cookie is per event too ({@code
 * Path=/events/{e}}: a buyer admitted to two events holds one token for each), so it also takes {@code __Secure-}; a
 * planted token still has to verify and name the visitor cookie's id. Over plain http (the launcher) the names stay
 * bare.
 *
 * <p>Behind the gateway only the canonical names exist: the visitor and ticket cookies never leave the gateway, and
 * the admission cookie is forwarded as {@code wr_at} to Waitroom's own services only (the coordinator sets it under
 * that name with the event's path, the gateway renames it on the way out). A shop origin gets none of them ({@link
 * #isWaitroomCookie}).
 */
@Component
public final class EdgeCookies {

    public static final String VISITOR = "wr_vid";

    public static final String TICKET = "wr_qt";

    public static final String ADMISSION = "wr_at";

    /** Over HTTPS: Secure, Path=/, no Domain, set from a secure origin only (the browser enforces it). */
    public static final String HOST_PREFIX = "__Host-";

    /** Over HTTPS, where a path is needed: Secure, set from a secure origin only. */
    public static final String SECURE_PREFIX = "__Secure-";

    private final boolean secure;

    private final Duration visitorMaxAge;

    private final String visitorName;

    private final String ticketName;

    private final String admissionName;

    public EdgeCookies(EdgeProperties edge) {
        this.secure = edge.secureCookies();
        this.visitorMaxAge = edge.cookies().visitorMaxAge();
        this.visitorName = secure ? HOST_PREFIX + VISITOR : VISITOR;
        this.ticketName = secure ? SECURE_PREFIX + TICKET : TICKET;
        this.admissionName = secure ? SECURE_PREFIX + ADMISSION : ADMISSION;
    }

    /** The start of every event's admission cookie name on the wire: {@code wr_at_<eventId>}. */
    public static final String ADMISSION_PER_EVENT = ADMISSION + "_";

    /** The language choice the waiting page remembers (LanguageChoice). */
    public static final String LANGUAGE = "waitroom_lang";

    /**
     * The name on the wire of one event's admission cookie: {@code wr_at_<eventId>} with {@code Path=/}, so it reaches
     * the event's protected paths wherever they are (docs/integration/gateway-in-front.md#cookies), one cookie per
     * event, so a buyer admitted to two events shops both; over HTTPS {@code __Host-}, which {@code Path=/} now allows:
     * no sibling subdomain and no plain-http answer can plant or overwrite it.
     */
    public String admissionName(EventId eventId) {
        return (secure ? HOST_PREFIX : "") + ADMISSION_PER_EVENT + eventId.value();
    }

    /**
     * A cookie Waitroom sets or reads, under any of its names (visitor, queue ticket, admission token of any event,
     * language; bare or prefixed): never forwarded to a shop's origin.
     */
    public static boolean isWaitroomCookie(String name) {
        String bare = name.startsWith(HOST_PREFIX)
                ? name.substring(HOST_PREFIX.length())
                : name.startsWith(SECURE_PREFIX) ? name.substring(SECURE_PREFIX.length()) : name;
        return bare.equals(VISITOR)
                || bare.equals(TICKET)
                || bare.equals(ADMISSION)
                || bare.equals(LANGUAGE)
                || (bare.startsWith(ADMISSION_PER_EVENT)
                        && EventId.isValid(bare.substring(ADMISSION_PER_EVENT.length())));
    }

    /** The admission cookie under any of its names (bare, prefixed, any event's). */
    public static boolean isAdmissionCookie(String name) {
        String bare = name.startsWith(HOST_PREFIX)
                ? name.substring(HOST_PREFIX.length())
                : name.startsWith(SECURE_PREFIX) ? name.substring(SECURE_PREFIX.length()) : name;
        return bare.equals(ADMISSION) || bare.startsWith(ADMISSION_PER_EVENT);
    }

    /** Cookies are {@code Secure} and their names prefixed. */
    public boolean secure() {
        return secure;
    }

    /** The visitor cookie's name on the wire. */
    public String visitorName() {
        return visitorName;
    }

    /** The queue ticket cookie's name on the wire. */
    public String ticketName() {
        return ticketName;
    }

    /** The admission token cookie's name on the wire. */
    public String admissionName() {
        return admissionName;
    }

    /** The wire name of a canonical cookie name; any other name unchanged. */
    public String onTheWire(String canonical) {
        return switch (canonical) {
            case VISITOR -> visitorName;
            case TICKET -> ticketName;
            case ADMISSION -> admissionName;
            default -> canonical;
        };
    }

    /** The visitor cookie: the whole site, script-proof, not sent on cross-site subrequests, kept for one sale. */
    public ResponseCookie visitor(String value) {
        return ResponseCookie.from(visitorName, value)
                .path("/")
                .httpOnly(true)
                .sameSite("Lax")
                .secure(secure)
                .maxAge(visitorMaxAge)
                .build();
    }

    /** The path of one event's own cookies (queue ticket, admission token): its pages and API, no other event's. */
    public static String eventPath(EventId eventId) {
        return "/events/" + eventId.value();
    }

    /** The queue ticket cookie of one event: a session cookie under the event's path; {@code clear} deletes it. */
    public ResponseCookie ticket(EventId eventId, String value, boolean clear) {
        ResponseCookie.ResponseCookieBuilder cookie = ResponseCookie.from(ticketName, clear ? "" : value)
                .path(eventPath(eventId))
                .httpOnly(true)
                .sameSite("Lax")
                .secure(secure);
        return (clear ? cookie.maxAge(0) : cookie).build();
    }
}
