package dev.waitroom.gateway.connections;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How long a client may hold a connection without making progress, and how many it may hold
 * ({@code waitroom.gateway.connections.*}, docs/design/abuse/client-limits.md#connections). A slow-loris client opens
 * connections and feeds them a byte at a time, or sends a body's first chunk and goes silent; without these limits each
 * such connection is held for ever.
 *
 * @param headerTimeout a request's line and headers must arrive within this, counted from the connection's start or
 *     the end of the previous answer: a client trickling header bytes is closed even though it never goes idle
 * @param idleTimeout a kept-alive connection with no request in progress is closed after this long without a byte
 * @param readTimeout while a request's body is read, at most this long between two reads
 * @param requestTimeout a request's whole body must arrive within this
 * @param maxPerAddress open connections per client address (the direct peer; a trusted proxy is never limited, since
 *     it carries many clients); the connection past it is closed at once. Browsers open about six per host.
 */
@Validated
@ConfigurationProperties("waitroom.gateway.connections")
public record ConnectionProperties(
        @DefaultValue("10s") Duration headerTimeout,
        @DefaultValue("60s") Duration idleTimeout,
        @DefaultValue("10s") Duration readTimeout,
        @DefaultValue("30s") Duration requestTimeout,
        @Min(1) @DefaultValue("256") int maxPerAddress) {}
