package dev.waitroom.gateway.client;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits per client address ({@code waitroom.gateway.client-limits.*}, docs/design/abuse/client-limits.md), beside the
 * per-visitor limits. Rates are for the whole deployment: the local limits give each gateway instance its share
 * ({@code rate / instances}), the shared one ({@code claims}) is counted in Redis.
 *
 * @param enabled false turns every per-address limit off (a private test stack behind one address)
 * @param instances gateway instances behind the load balancer, to split the local limits; with client-address
 *        affinity at the balancer (every request of one address on one instance) set 1
 * @param maxAddresses buckets held per limit per instance at most (idle, full ones are dropped first)
 * @param newVisitors new visitor identities minted (a request of the event API without a valid visitor cookie)
 * @param joins joins ({@code POST /events/{e}/queue})
 * @param unticketedPolls status polls without a valid queue ticket (each goes to the queue-service)
 * @param sessions renew and leave of a shopping session
 * @param shop the shop's routes
 * @param signals a shop's signals ({@code POST /events/{e}/signals/*}), sent by the shop's servers rather than by
 *        browsers: one address carries every buyer's purchase, so it is wider than the others
 * @param claims claims of an offer, counted in Redis across instances
 */
@Validated
@ConfigurationProperties("waitroom.gateway.client-limits")
public record ClientLimitsProperties(
        @DefaultValue("true") boolean enabled,
        @Min(1) @DefaultValue("1") int instances,
        @Min(1) @DefaultValue("200000") int maxAddresses,
        @NotNull @Valid Limit newVisitors,
        @NotNull @Valid Limit joins,
        @NotNull @Valid Limit unticketedPolls,
        @NotNull @Valid Limit sessions,
        @NotNull @Valid Limit shop,
        @NotNull @Valid Limit signals,
        @NotNull @Valid Limit claims) {

    /**
     * A token bucket per client address.
     *
     * @param replenishRate requests per second, sustained
     * @param burstCapacity requests at once
     */
    public record Limit(double replenishRate, double burstCapacity) {

        public Limit {
            if (!(replenishRate > 0) || !(burstCapacity >= 1) || burstCapacity < replenishRate) {
                throw new IllegalArgumentException(
                        "a client limit needs replenish-rate > 0 and burst-capacity >= max(1, replenish-rate)");
            }
        }
    }
}
