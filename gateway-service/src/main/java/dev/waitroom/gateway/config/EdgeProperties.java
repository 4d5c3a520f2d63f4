package dev.waitroom.gateway.config;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the edge behaves.
 *
 * @param secureCookies mark cookies {@code Secure}; only {@code false} for local plain http
 * @param visitorCookieMaxAge how long the browser keeps the visitor identity
 * @param snapshotRefreshInterval a per-event snapshot is fetched at most this often
 * @param snapshotMaxAge an older snapshot is stale: polls go to the queue-service
 * @param snapshotMaxEvents snapshots kept at most (idle events are dropped first)
 * @param ticketLiveness a queue ticket older than this goes to the queue-service so it records liveness
 * @param upstreamTimeout time budget of the gateway's own HTTP calls (snapshot, JWKS)
 * @param redisTimeout time budget of one Redis call (registry, rate limits, claim guard)
 * @param orderStatusGrace how long after its expiry a token still reads the status of its orders
 * @param bindTokenToVisitor reject an admission token whose visitor binding is not the caller's cookie
 */
@Validated
@ConfigurationProperties("waitroom.gateway")
public record EdgeProperties(
		@DefaultValue("true") boolean secureCookies,
		@NotNull @DefaultValue("7d") Duration visitorCookieMaxAge,
		@NotNull @DefaultValue("1s") Duration snapshotRefreshInterval,
		@NotNull @DefaultValue("2s") Duration snapshotMaxAge,
		@Min(1) @DefaultValue("10000") int snapshotMaxEvents,
		@NotNull @DefaultValue("60s") Duration ticketLiveness,
		@NotNull @DefaultValue("2s") Duration upstreamTimeout,
		@NotNull @DefaultValue("500ms") Duration redisTimeout,
		@NotNull @DefaultValue("30m") Duration orderStatusGrace,
		@DefaultValue("true") boolean bindTokenToVisitor) {
}
