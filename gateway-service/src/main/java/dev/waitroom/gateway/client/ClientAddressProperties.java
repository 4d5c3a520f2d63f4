package dev.waitroom.gateway.client;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the gateway finds the client's address ({@code waitroom.gateway.client-address.*}, docs/design/abuse/client-limits.md).
 *
 * @param trustedProxies CIDR blocks of the proxies in front of the gateway whose {@code Forwarded} / {@code
 *        X-Forwarded-For} are believed; when unset, loopback, link-local and the private ranges ({@link
 *        TrustedProxies#PRIVATE_AND_LOOPBACK}, Tomcat's {@code RemoteIpValve} convention). Empty: forwarding headers
 *        are never read, the peer is the client.
 * @param ipv6Prefix an IPv6 client is limited by this many leading bits of its address: one subscriber usually holds a
 *        whole /64, so counting single IPv6 addresses would let one client be 2^64 clients
 * @param maxHops forwarding entries read at most, from the right: a longer chain is not walked further
 * @param header the one forwarding header the trusted proxies write: {@code X-Forwarded-For} (the default; what
 *        ingress-nginx, most load balancers and CDNs append) or {@code Forwarded} (RFC 7239). The other is never read: a
 *        proxy that appends only one passes a client's own copy of the other through untouched, and reading it would
 *        let the client choose its limit key.
 */
@Validated
@ConfigurationProperties("waitroom.gateway.client-address")
public record ClientAddressProperties(
        List<String> trustedProxies,
        @Min(1) @Max(128) @DefaultValue("64") int ipv6Prefix,
        @Min(1) @Max(100) @DefaultValue("20") int maxHops,
        @DefaultValue("X-Forwarded-For") ForwardingHeader header) {

    public ClientAddressProperties {
        trustedProxies = trustedProxies == null ? TrustedProxies.PRIVATE_AND_LOOPBACK : List.copyOf(trustedProxies);
        header = header == null ? ForwardingHeader.X_FORWARDED_FOR : header;
    }

    /** The forwarding header the trusted proxies write, by its HTTP name ({@code X-Forwarded-For}, {@code Forwarded}). */
    public enum ForwardingHeader {
        X_FORWARDED_FOR("X-Forwarded-For"),
        FORWARDED("Forwarded");

        private final String headerName;

        ForwardingHeader(String headerName) {
            this.headerName = headerName;
        }

        public String headerName() {
            return headerName;
        }
    }
}
