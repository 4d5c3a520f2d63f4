package dev.waitroom.gateway.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the edge behaves.
 *
 * @param secureCookies the edge is served over HTTPS: every cookie is {@code Secure} and carries a name prefix the
 *        browser enforces ({@code __Host-wr_vid}, {@code __Secure-wr_at}, {@code __Secure-wr_qt}); only {@code false}
 *        for local plain http, where the names stay bare
 * @param cookies the edge's cookies
 * @param snapshotRefreshInterval a per-event snapshot is fetched at most this often
 * @param snapshotMaxAge an older snapshot is stale: polls go to the queue-service
 * @param snapshotMaxEvents snapshots kept at most (the events asked about least are dropped first, never all)
 * @param ticketMaxAge a queue ticket older than this goes to the queue-service once for a fresh one (a safety net:
 *        liveness is recorded in batches, so polls need no forward for it)
 * @param livenessFlushInterval the entries whose polls the edge answered are sent to the queue-service this often
 * @param livenessReportInterval an entry is reported at most once per this interval (the queue-service keeps
 *        last-seen at this granularity anyway), so liveness costs one write per waiting visitor per interval
 * @param livenessMaxPending entries waiting for a liveness flush at most (more are dropped and counted); also the
 *        bound of the cache of entries the queue-service said have moved on
 * @param rateLimits per-visitor limits held in this instance (status polls)
 * @param upstreamTimeout time budget of the gateway's own HTTP calls (snapshot, JWKS)
 * @param redisTimeout time budget of one Redis call (registry, rate limits, claim guard)
 * @param orderStatusGrace how long after its expiry a token still reads the status of its orders
 * @param bindTokenToVisitor reject an admission token whose visitor binding is not the caller's cookie
 */
@Validated
@ConfigurationProperties("waitroom.gateway")
public record EdgeProperties(
        @DefaultValue("true") boolean secureCookies,
        @NotNull @Valid @DefaultValue Cookies cookies,
        @NotNull @DefaultValue("1s") Duration snapshotRefreshInterval,
        @NotNull @DefaultValue("2s") Duration snapshotMaxAge,
        @Min(1) @DefaultValue("10000") int snapshotMaxEvents,
        @NotNull @DefaultValue("30m") Duration ticketMaxAge,
        @NotNull @DefaultValue("1s") Duration livenessFlushInterval,
        @NotNull @DefaultValue("30s") Duration livenessReportInterval,
        @Min(1) @DefaultValue("200000") int livenessMaxPending,
        @NotNull @Valid @DefaultValue RateLimits rateLimits,
        @NotNull @DefaultValue("2s") Duration upstreamTimeout,
        @NotNull @DefaultValue("500ms") Duration redisTimeout,
        @NotNull @DefaultValue("30m") Duration orderStatusGrace,
        @DefaultValue("true") boolean bindTokenToVisitor) {

    @ConstructorBinding
    public EdgeProperties {}

    /** With the visitor cookie's lifetime alone in place of {@link Cookies} (the form before the cookie settings). */
    public EdgeProperties(
            boolean secureCookies,
            Duration visitorCookieMaxAge,
            Duration snapshotRefreshInterval,
            Duration snapshotMaxAge,
            int snapshotMaxEvents,
            Duration ticketMaxAge,
            Duration livenessFlushInterval,
            Duration livenessReportInterval,
            int livenessMaxPending,
            RateLimits rateLimits,
            Duration upstreamTimeout,
            Duration redisTimeout,
            Duration orderStatusGrace,
            boolean bindTokenToVisitor) {
        this(
                secureCookies,
                new Cookies(visitorCookieMaxAge),
                snapshotRefreshInterval,
                snapshotMaxAge,
                snapshotMaxEvents,
                ticketMaxAge,
                livenessFlushInterval,
                livenessReportInterval,
                livenessMaxPending,
                rateLimits,
                upstreamTimeout,
                redisTimeout,
                orderStatusGrace,
                bindTokenToVisitor);
    }

    /**
     * The edge's cookies ({@code waitroom.gateway.cookies.*}).
     *
     * @param visitorMaxAge how long the browser keeps the visitor identity ({@code wr_vid}): long enough for one sale
     *        (a visitor who loses it loses their place), short enough that a copy of it soon expires (alone it never
     *        yields an admission token)
     */
    public record Cookies(@NotNull @DefaultValue("12h") Duration visitorMaxAge) {

        public Cookies {
            if (visitorMaxAge != null && (visitorMaxAge.isNegative() || visitorMaxAge.isZero())) {
                throw new IllegalArgumentException("waitroom.gateway.cookies.visitor-max-age must be positive");
            }
        }
    }

    /** @param status the limit on status polls, held in each gateway instance */
    public record RateLimits(@NotNull @Valid @DefaultValue Limit status) {}

    /**
     * A token bucket per visitor.
     *
     * @param replenishRate tokens added per second
     * @param burstCapacity the bucket's size
     * @param requestedTokens tokens one request costs
     * @param maxVisitors buckets held at most (idle ones are dropped first: a full bucket changes nothing)
     */
    public record Limit(
            @Min(1) @DefaultValue("2") int replenishRate,
            @Min(1) @DefaultValue("20") int burstCapacity,
            @Min(1) @DefaultValue("1") int requestedTokens,
            @Min(1) @DefaultValue("500000") int maxVisitors) {}
}
