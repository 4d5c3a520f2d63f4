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
 * Netty's idle, read and request timeouts, plus what it lacks, a deadline for a request's line and headers and a cap on
 * open connections per client address. Everything runs on the connection's event loop: a counter per address, one
 * scheduled task per connection while it waits for headers.
 */
@Component
class ConnectionGuard implements NettyServerCustomizer {

    private final ConnectionProperties properties;

    private final TrustedProxies trusted;

    private final ConcurrentHashMap<InetAddress, AtomicInteger> open = new ConcurrentHashMap<>();

    private final Counter refused;

    private final Counter headerTimeouts;

    ConnectionGuard(ConnectionProperties properties, ClientAddressProperties addresses, MeterRegistry meters) {
        this.properties = properties;
        this.trusted = TrustedProxies.of(addresses.trustedProxies());
        this.refused = Counter.builder("waitroom.gateway.connections.refused")
                .description("Connections closed at once: the client address held its maximum already")
                .register(meters);
        this.headerTimeouts = Counter.builder("waitroom.gateway.connections.header.timeouts")
                .description("Connections closed because a request's line and headers did not arrive in time")
                .register(meters);
        Gauge.builder("waitroom.gateway.connections.addresses", open, ConcurrentHashMap::size)
                .description("Client addresses holding an open connection (trusted proxies not counted)")
                .register(meters);
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return server.idleTimeout(properties.idleTimeout())
                .readTimeout(properties.readTimeout())
                .requestTimeout(properties.requestTimeout())
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
        channel.pipeline()
                .addAfter(NettyPipeline.HttpCodec, "waitroom.connectionGuard", new HeaderDeadline(address, count));
    }

    private void release(InetAddress address, AtomicInteger count) {
        if (count != null && count.decrementAndGet() <= 0) {
            open.remove(address, count);
        }
    }

    /**
     * Closes the connection when a request's line and headers take longer than the header timeout: armed at the
     * connection's start and after each complete answer when no other request is in flight, disarmed when a request's
     * headers are decoded.
     */
    private final class HeaderDeadline extends ChannelDuplexHandler {

        private final InetAddress address;

        private final AtomicInteger count;

        private ScheduledFuture<?> deadline;

        /** Requests read whose answer is not yet written: pipelined ones wait behind the first. */
        private int inFlight;

        HeaderDeadline(InetAddress address, AtomicInteger count) {
            this.address = address;
            this.count = count;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            arm(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                inFlight++;
                disarm();
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof LastHttpContent && !informational(msg)) {
                promise.addListener(f -> {
                    // only once nothing is in flight: a pipelined request already read is not waiting for headers
                    if (--inFlight <= 0 && f.isSuccess() && ctx.channel().isActive()) {
                        inFlight = 0;
                        arm(ctx);
                    }
                });
            }
            ctx.write(msg, promise);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            disarm();
            release(address, count);
            ctx.fireChannelInactive();
        }

        /** A 100 Continue is whole (a full response) but answers nothing yet. */
        private static boolean informational(Object msg) {
            return msg instanceof HttpResponse response
                    && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        }

        private void arm(ChannelHandlerContext ctx) {
            disarm();
            deadline = ctx.executor()
                    .schedule(
                            () -> {
                                headerTimeouts.increment();
                                ctx.close();
                            },
                            properties.headerTimeout().toMillis(),
                            TimeUnit.MILLISECONDS);
        }

        private void disarm() {
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        }
    }
}
