package dev.waitroom.gateway.client;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The proxies whose forwarding headers are believed: a list of CIDR blocks, matched with Netty's {@link
 * IpSubnetFilterRule}. Parsing never asks DNS: an entry that is not an address literal is refused at startup.
 */
public final class TrustedProxies {

    /**
     * Loopback, link-local and the private ranges: the default of Tomcat's {@code RemoteIpValve} ({@code
     * internalProxies}), where a load balancer or ingress in the same network usually sits.
     */
    public static final List<String> PRIVATE_AND_LOOPBACK = List.of(
            "127.0.0.0/8",
            "10.0.0.0/8",
            "172.16.0.0/12",
            "192.168.0.0/16",
            "169.254.0.0/16",
            "100.64.0.0/10",
            "::1/128",
            "fc00::/7",
            "fe80::/10");

    private final List<IpSubnetFilterRule> rules;

    private TrustedProxies(List<IpSubnetFilterRule> rules) {
        this.rules = rules;
    }

    /** From CIDR blocks ({@code 10.0.0.0/8}, {@code fc00::/7}); a bare address is its own block. */
    public static TrustedProxies of(List<String> cidrs) {
        return new TrustedProxies(cidrs.stream().map(TrustedProxies::rule).toList());
    }

    public boolean trusts(InetAddress address) {
        if (rules.isEmpty()) {
            return false;
        }
        InetSocketAddress socket = new InetSocketAddress(address, 0);
        for (IpSubnetFilterRule rule : rules) {
            if (rule.matches(socket)) {
                return true;
            }
        }
        return false;
    }

    private static IpSubnetFilterRule rule(String cidr) {
        String trimmed = cidr.trim();
        int slash = trimmed.indexOf('/');
        String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
        InetAddress parsed = literal(address);
        if (parsed == null) {
            throw new IllegalArgumentException(
                    "waitroom.gateway.client-address.trusted-proxies: '" + cidr + "' is not an address or CIDR block");
        }
        int bits = parsed.getAddress().length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? bits : Integer.parseInt(trimmed.substring(slash + 1));
        } catch (NumberFormatException ex) {
            prefix = -1;
        }
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException(
                    "waitroom.gateway.client-address.trusted-proxies: '" + cidr + "' has no valid prefix length");
        }
        return new IpSubnetFilterRule(parsed, prefix, IpFilterRuleType.ACCEPT);
    }

    /** An IPv4 or IPv6 address literal, or null; never a DNS lookup. */
    static InetAddress literal(String text) {
        if (text == null || text.isEmpty() || text.length() > 64) {
            return null;
        }
        return NetUtil.createInetAddressFromIpAddressString(text);
    }
}
