package dev.waitroom.gateway.client;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * The client's address, the key of the per-address limits (docs/design/abuse/client-limits.md): the direct peer, or, when the
 * peer is a trusted proxy, the first untrusted address of the forwarding chain read from the right. Only the header
 * the proxies are configured to write is read ({@link ClientAddressProperties#header()}: {@code X-Forwarded-For} by
 * default, or RFC 7239 {@code Forwarded}), never the other. An untrusted peer's forwarding headers are ignored,
 * so a client cannot choose its own key; an entry that is not an address literal ({@code unknown}, an obfuscated
 * name, garbage) ends the walk at the last trusted hop.
 *
 * <p>Resolved once per exchange and only when a limit asks (an answered status poll never does). The key is the
 * address in text for IPv4 and its leading {@link ClientAddressProperties#ipv6Prefix()} bits for IPv6. It stays in
 * memory (and, for the shared limits, in Redis under a keyed hash); it is never logged.
 */
@Component
public class ClientAddresses {

    private static final String ATTRIBUTE = ClientAddresses.class.getName() + ".key";

    /** The key of a request without a peer address (never the case on a real socket). */
    static final String UNKNOWN = "unknown";

    private final TrustedProxies trusted;

    private final int ipv6Prefix;

    private final int maxHops;

    private final ClientAddressProperties.ForwardingHeader header;

    ClientAddresses(ClientAddressProperties properties) {
        this.trusted = TrustedProxies.of(properties.trustedProxies());
        this.ipv6Prefix = properties.ipv6Prefix();
        this.maxHops = properties.maxHops();
        this.header = properties.header();
    }

    /** The limit key of this exchange's client. */
    public String keyOf(ServerWebExchange exchange) {
        String key = exchange.getAttribute(ATTRIBUTE);
        if (key == null) {
            key = key(resolve(exchange.getRequest()));
            exchange.getAttributes().put(ATTRIBUTE, key);
        }
        return key;
    }

    /** The client's address, or null when the request has no peer address. */
    InetAddress resolve(ServerHttpRequest request) {
        InetSocketAddress remote = request.getRemoteAddress();
        InetAddress client = remote == null ? null : remote.getAddress();
        if (client == null || !trusted.trusts(client)) {
            return client;
        }
        List<String> hops = hops(request.getHeaders(), header);
        int stop = Math.max(0, hops.size() - maxHops);
        for (int i = hops.size() - 1; i >= stop; i--) {
            InetAddress hop = TrustedProxies.literal(hops.get(i));
            if (hop == null) {
                return client;
            }
            client = hop;
            if (!trusted.trusts(hop)) {
                return hop;
            }
        }
        return client;
    }

    private String key(InetAddress address) {
        if (address == null) {
            return UNKNOWN;
        }
        if (address instanceof Inet6Address) {
            byte[] bytes = address.getAddress();
            StringBuilder key = new StringBuilder(ipv6Prefix / 4 + 4);
            for (int bit = 0; bit < ipv6Prefix; bit += 4) {
                int nibble = (bytes[bit / 8] >> (bit % 8 == 0 ? 4 : 0)) & 0xF;
                int keep = Math.min(4, ipv6Prefix - bit);
                key.append(Character.forDigit(nibble & (0xF << (4 - keep)), 16));
            }
            return key.append('/').append(ipv6Prefix).toString();
        }
        return address.getHostAddress();
    }

    /** The forwarding chain in {@code header}, left (farthest) to right (nearest); several lines are one list. */
    static List<String> hops(HttpHeaders headers, ClientAddressProperties.ForwardingHeader header) {
        List<String> lines = headers.get(header.headerName());
        List<String> hops = new ArrayList<>();
        if (lines == null) {
            return hops;
        }
        for (String line : lines) {
            for (String element : line.split(",")) {
                hops.add(
                        header == ClientAddressProperties.ForwardingHeader.FORWARDED
                                ? forValue(element)
                                : element.trim());
            }
        }
        return hops;
    }

    /** The address of one {@code Forwarded} element's {@code for=} pair, without quotes, brackets or port; "" if none. */
    static String forValue(String element) {
        for (String pair : element.split(";")) {
            String trimmed = pair.trim();
            if (trimmed.length() > 4 && trimmed.regionMatches(true, 0, "for=", 0, 4)) {
                String value = trimmed.substring(4).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                if (value.startsWith("[")) {
                    int close = value.indexOf(']');
                    return close < 0 ? "" : value.substring(1, close);
                }
                int colon = value.indexOf(':');
                if (colon >= 0 && colon == value.lastIndexOf(':')) {
                    return value.substring(0, colon);
                }
                return value;
            }
        }
        return "";
    }
}
