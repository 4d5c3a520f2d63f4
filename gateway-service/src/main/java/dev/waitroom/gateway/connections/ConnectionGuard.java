package dev.waitroom.gateway.connections;

import dev.waitroom.gateway.client.ClientAddressProperties;
import dev.waitroom.gateway.client.TrustedProxies;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * The gateway's defence against clients that hold connections without making progress (issue #28, slow-loris): Reactor
 * Netty's idle timeout, plus deadlines for a request's line and headers and for its body, and a cap on open connections
 * per client address. Everything runs on the connection's event loop: a counter per address, one scheduled task per
 * connection while it waits for headers, one while a body is still arriving after a read.
 *
 * <p>The body's deadlines are kept here rather than by Reactor Netty's {@code readTimeout} and {@code requestTimeout}:
 * those arm a timer (and a handler) for every request and disarm it only when the request's last content reaches the
 * request's operations. A request the edge answers at once (a status poll) is complete before its empty last content
 * arrives, so the timer stayed scheduled for the whole request timeout, holding the request with it: 30 s of polls in
 * the heap, the gateway's old generation full at 13,000 polls/s (docs/reference/performance.md). Here a request whose
 * body is complete within the read that brought its headers, every GET, schedules nothing.
 */
@Component
class ConnectionGuard implements NettyServerCustomizer {

    private final ConnectionProperties properties;

    private final TrustedProxies trusted;

    private final ConcurrentHashMap<InetAddress, AtomicInteger> open = new ConcurrentHashMap<>();

    private final Counter refused;

    private final Counter headerTimeouts;

    private final Counter bodyTimeouts;

    ConnectionGuard(ConnectionProperties properties, ClientAddressProperties addresses, MeterRegistry meters) {
        this.properties = properties;
        this.trusted = TrustedProxies.of(addresses.trustedProxies());
        this.refused = Counter.builder("waitroom.gateway.connections.refused")
                .description("Connections closed at once: the client address held its maximum already")
                .register(meters);
        this.headerTimeouts = Counter.builder("waitroom.gateway.connections.header.timeouts")
                .description("Connections closed because a request's line and headers did not arrive in time")
                .register(meters);
        this.bodyTimeouts = Counter.builder("waitroom.gateway.connections.body.timeouts")
                .description("Connections closed because a request's body stalled between reads or took too long")
                .register(meters);
        Gauge.builder("waitroom.gateway.connections.addresses", open, ConcurrentHashMap::size)
                .description("Client addresses holding an open connection (trusted proxies not counted)")
                .register(meters);
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return server.idleTimeout(properties.idleTimeout())
                .doOnChannelInit((observer, channel, remote) -> guard(channel, remote));
    }

    private void guard(Channel channel, SocketAddress remote) {
        InetAddress address = remote instanceof InetSocketAddress socket ? socket.getAddress() : null;
        AtomicInteger count = null;
        if (address != null && !trusted.trusts(address)) {
            count = open.computeIfAbsent(address, a -> new AtomicInteger());
            if (count.incrementAndGet() > properties.maxPerAddress()) {
                release(address, count);
                refused.increment();
                channel.close();
                return;
            }
        }
        if (channel.pipeline().get(NettyPipeline.HttpCodec) == null) {
            // not HTTP/1.1 cleartext (e.g. HTTP/2 over TLS): Reactor Netty's own timeouts apply
            AtomicInteger held = count;
            channel.closeFuture().addListener(f -> release(address, held));
            return;
        }
        channel.pipeline().addAfter(NettyPipeline.HttpCodec, "waitroom.connectionGuard", new Deadlines(address, count));
    }

    private void release(InetAddress address, AtomicInteger count) {
        if (count != null && count.decrementAndGet() <= 0) {
            open.remove(address, count);
        }
    }

    /**
     * Closes the connection when a request's line and headers take longer than the header timeout, or its body stalls
     * longer than the read timeout between reads or takes longer than the request timeout in all. The header deadline is
     * armed at the connection's start and after each complete answer when no other request is in flight, disarmed when a
     * request's headers are decoded. The body's deadline is armed only at the end of a read that left a body incomplete,
     * and checked (and re-armed for what is left) when it falls due.
     */
    private final class Deadlines extends ChannelDuplexHandler {

        private final InetAddress address;

        private final AtomicInteger count;

        private final long readTimeoutNanos = properties.readTimeout().toNanos();

        private final long requestTimeoutNanos = properties.requestTimeout().toNanos();

        private ScheduledFuture<?> headerDeadline;

        /** Requests read whose answer is not yet written: pipelined ones wait behind the first. */
        private int inFlight;

        /** A request's headers have been read and its last content not yet. */
        private boolean bodyOpen;

        private long bodyStartedNanos;

        private long lastBodyReadNanos;

        private ScheduledFuture<?> bodyDeadline;

        Deadlines(InetAddress address, AtomicInteger count) {
            this.address = address;
            this.count = count;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            armHeaders(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                inFlight++;
                disarmHeaders();
                if (!(msg instanceof LastHttpContent)) {
                    bodyOpen = true;
                    bodyStartedNanos = System.nanoTime();
                    lastBodyReadNanos = bodyStartedNanos;
                }
            } else if (msg instanceof LastHttpContent) {
                bodyOpen = false;
                disarmBody();
            } else if (bodyOpen && msg instanceof HttpContent) {
                lastBodyReadNanos = System.nanoTime();
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (bodyOpen && bodyDeadline == null) {
                armBody(ctx, System.nanoTime());
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof LastHttpContent && !informational(msg)) {
                promise.addListener(f -> {
                    // only once nothing is in flight: a pipelined request already read is not waiting for headers
                    if (--inFlight <= 0 && f.isSuccess() && ctx.channel().isActive()) {
                        inFlight = 0;
                        armHeaders(ctx);
                    }
                });
            }
            ctx.write(msg, promise);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            disarmHeaders();
            disarmBody();
            release(address, count);
            ctx.fireChannelInactive();
        }

        /** A 100 Continue is whole (a full response) but answers nothing yet. */
        private static boolean informational(Object msg) {
            return msg instanceof HttpResponse response
                    && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        }

        private void armHeaders(ChannelHandlerContext ctx) {
            disarmHeaders();
            headerDeadline = ctx.executor()
                    .schedule(
                            () -> {
                                headerTimeouts.increment();
                                ctx.close();
                            },
                            properties.headerTimeout().toMillis(),
                            TimeUnit.MILLISECONDS);
        }

        private void disarmHeaders() {
            if (headerDeadline != null) {
                headerDeadline.cancel(false);
                headerDeadline = null;
            }
        }

        /** Schedules the body's check for whichever of its two deadlines falls first. */
        private void armBody(ChannelHandlerContext ctx, long now) {
            long due = Math.min(lastBodyReadNanos + readTimeoutNanos, bodyStartedNanos + requestTimeoutNanos);
            bodyDeadline = ctx.executor().schedule(() -> checkBody(ctx), Math.max(due - now, 1), TimeUnit.NANOSECONDS);
        }

        private void checkBody(ChannelHandlerContext ctx) {
            bodyDeadline = null;
            if (!bodyOpen || !ctx.channel().isActive()) {
                return;
            }
            long now = System.nanoTime();
            if (now - lastBodyReadNanos >= readTimeoutNanos || now - bodyStartedNanos >= requestTimeoutNanos) {
                bodyOpen = false;
                bodyTimeouts.increment();
                ctx.close();
                return;
            }
            armBody(ctx, now);
        }

        private void disarmBody() {
            if (bodyDeadline != null) {
                bodyDeadline.cancel(false);
                bodyDeadline = null;
            }
        }
    }
}
