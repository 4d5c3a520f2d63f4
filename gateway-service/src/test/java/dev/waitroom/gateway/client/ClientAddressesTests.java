package dev.waitroom.gateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

/** The client's address behind trusted proxies, and what a client cannot make the gateway believe. */
class ClientAddressesTests {

    private final ClientAddresses addresses = new ClientAddresses(new ClientAddressProperties(
            TrustedProxies.PRIVATE_AND_LOOPBACK, 64, 20, ClientAddressProperties.ForwardingHeader.X_FORWARDED_FOR));

    private final ClientAddresses forwarded = new ClientAddresses(new ClientAddressProperties(
            TrustedProxies.PRIVATE_AND_LOOPBACK, 64, 20, ClientAddressProperties.ForwardingHeader.FORWARDED));

    private String key(String peer, String... headers) {
        return key(addresses, peer, headers);
    }

    private static String key(ClientAddresses addresses, String peer, String... headers) {
        MockServerHttpRequest.BaseBuilder<?> request =
                MockServerHttpRequest.get("/events/e1/queue").remoteAddress(new InetSocketAddress(peer, 40000));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return addresses.keyOf(MockServerWebExchange.from(request));
    }

    @Test
    void aDirectPeerIsTheClient() {
        assertThat(key("203.0.113.7")).isEqualTo("203.0.113.7");
    }

    @Test
    void anUntrustedPeersForwardingHeadersAreIgnored() {
        assertThat(key("203.0.113.7", "X-Forwarded-For", "198.18.0.1")).isEqualTo("203.0.113.7");
        assertThat(key("203.0.113.7", "Forwarded", "for=198.18.0.1")).isEqualTo("203.0.113.7");
        assertThat(key(forwarded, "203.0.113.7", "Forwarded", "for=198.18.0.1")).isEqualTo("203.0.113.7");
        assertThat(key("203.0.113.7", "X-Forwarded-For", "127.0.0.1")).isEqualTo("203.0.113.7");
    }

    @Test
    void behindTrustedProxiesTheFirstUntrustedAddressFromTheRightIsTheClient() {
        assertThat(key("127.0.0.1", "X-Forwarded-For", "198.18.0.1")).isEqualTo("198.18.0.1");
        // the client wrote its own X-Forwarded-For; the proxies appended the real peer and themselves
        assertThat(key("10.0.0.2", "X-Forwarded-For", "6.6.6.6, 198.18.0.9, 10.0.0.1"))
                .isEqualTo("198.18.0.9");
        assertThat(key("10.0.0.2", "X-Forwarded-For", "6.6.6.6", "X-Forwarded-For", "198.18.0.9"))
                .as("several header lines are one list")
                .isEqualTo("198.18.0.9");
    }

    @Test
    void behindAProxyThatAppendsXForwardedForAClientsOwnForwardedHeaderIsNeverRead() {
        // ingress-nginx, most load balancers and CDNs append X-Forwarded-For and pass a client's Forwarded untouched:
        // reading it would let every request choose its own limit key (issue #28)
        assertThat(key("10.0.0.2", "Forwarded", "for=6.6.6.6", "X-Forwarded-For", "198.18.0.9"))
                .isEqualTo("198.18.0.9");
        assertThat(key("10.0.0.2", "Forwarded", "for=6.6.6.6"))
                .as("no X-Forwarded-For: the proxy is the client")
                .isEqualTo("10.0.0.2");
        for (int i = 0; i < 50; i++) {
            assertThat(key("10.0.0.2", "Forwarded", "for=203.0.113." + i, "X-Forwarded-For", "198.18.0.9"))
                    .isEqualTo("198.18.0.9");
        }
    }

    @Test
    void behindAProxyThatWritesForwardedAClientsOwnXForwardedForIsNeverRead() {
        assertThat(key(forwarded, "127.0.0.1", "Forwarded", "for=198.18.0.5;proto=https", "X-Forwarded-For", "6.6.6.6"))
                .isEqualTo("198.18.0.5");
        assertThat(key(forwarded, "127.0.0.1", "X-Forwarded-For", "6.6.6.6")).isEqualTo("127.0.0.1");
    }

    @Test
    void forwardedForms() {
        assertThat(key(forwarded, "127.0.0.1", "Forwarded", "for=\"198.18.0.5:4711\""))
                .isEqualTo("198.18.0.5");
        assertThat(key(forwarded, "127.0.0.1", "Forwarded", "for=\"[2001:db8:cafe::17]:4711\""))
                .isEqualTo("20010db8cafe0000/64");
        assertThat(key(forwarded, "127.0.0.1", "Forwarded", "For=198.18.0.6, for=10.1.1.1"))
                .isEqualTo("198.18.0.6");
        assertThat(key(forwarded, "127.0.0.1", "Forwarded", "for=unknown")).isEqualTo("127.0.0.1");
        assertThat(key(forwarded, "127.0.0.1", "Forwarded", "for=_hidden")).isEqualTo("127.0.0.1");
    }

    @Test
    void garbageOrHiddenEntriesEndTheWalkAtTheLastTrustedHop() {
        assertThat(key("127.0.0.1", "X-Forwarded-For", "not-an-ip")).isEqualTo("127.0.0.1");
        assertThat(key("127.0.0.1", "X-Forwarded-For", "evil.example, 10.0.0.1"))
                .isEqualTo("10.0.0.1");
        assertThat(key("127.0.0.1", "X-Forwarded-For", "")).isEqualTo("127.0.0.1");
        assertThat(key("127.0.0.1", "X-Forwarded-For", "1".repeat(5000))).isEqualTo("127.0.0.1");
    }

    @Test
    void aChainOfOnlyTrustedHopsEndsAtItsFarthestHop() {
        assertThat(key("127.0.0.1", "X-Forwarded-For", "192.168.1.20, 10.0.0.1"))
                .isEqualTo("192.168.1.20");
    }

    @Test
    void ipv6ClientsAreCountedByTheirSlash64() {
        assertThat(key("127.0.0.1", "X-Forwarded-For", "2001:db8:1:2:aaaa::1"))
                .isEqualTo(key("127.0.0.1", "X-Forwarded-For", "2001:db8:1:2:bbbb::2"))
                .isEqualTo("20010db800010002/64");
        assertThat(key("127.0.0.1", "X-Forwarded-For", "2001:db8:1:3::1")).isEqualTo("20010db800010003/64");
        assertThat(key("127.0.0.1", "X-Forwarded-For", "::ffff:198.18.0.1"))
                .as("an IPv4-mapped address is its IPv4 address")
                .isEqualTo("198.18.0.1");
    }

    @Test
    void noTrustedProxiesMeansForwardingIsNeverRead() {
        ClientAddresses none = new ClientAddresses(new ClientAddressProperties(
                List.of(), 64, 20, ClientAddressProperties.ForwardingHeader.X_FORWARDED_FOR));
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/")
                .remoteAddress(new InetSocketAddress("127.0.0.1", 1))
                .header("X-Forwarded-For", "198.18.0.1"));
        assertThat(none.keyOf(exchange)).isEqualTo("127.0.0.1");
    }

    @Test
    void aWalkStopsAfterMaxHops() {
        ClientAddresses shallow = new ClientAddresses(new ClientAddressProperties(
                List.of("10.0.0.0/8"), 64, 2, ClientAddressProperties.ForwardingHeader.X_FORWARDED_FOR));
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/")
                .remoteAddress(new InetSocketAddress("10.0.0.9", 1))
                .header("X-Forwarded-For", "198.18.0.1, 10.0.0.3, 10.0.0.2, 10.0.0.1"));
        assertThat(shallow.keyOf(exchange)).isEqualTo("10.0.0.2");
    }

    @Test
    void trustedProxiesMustBeAddressLiterals() {
        assertThatThrownBy(() -> TrustedProxies.of(List.of("proxy.example/8")))
                .hasMessageContaining("not an address or CIDR block");
        assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/33"))).hasMessageContaining("prefix length");
        assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/x"))).hasMessageContaining("prefix length");
        assertThat(TrustedProxies.of(List.of("203.0.113.7")).trusts(TrustedProxies.literal("203.0.113.7")))
                .isTrue();
    }
}
