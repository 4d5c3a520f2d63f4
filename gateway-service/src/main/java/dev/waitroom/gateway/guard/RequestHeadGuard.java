package dev.waitroom.gateway.guard;

import dev.waitroom.contract.ProblemType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses, right behind the HTTP decoder and before anything else reads the request, two kinds of request head with an
 * RFC 9457 problem, and closes the connection after the answer (a body it announced is never read):
 *
 * <ul>
 *   <li>A target that is not a URI ({@code ?x=%%%}, {@code /things/%zz}, a raw {@code |}). Spring's adapter of Reactor
 *       Netty parses the target before any filter runs and answers such a request 400 with an empty body, so no
 *       {@code WebFilter} can. A bad escape in the path is {@code bad-path}, as {@link PathSafetyWebFilter} says of the
 *       other bad escapes; in the query {@code malformed-request}.
 *   <li>A GET, HEAD, OPTIONS or TRACE that announces a body ({@code Transfer-Encoding}, or a {@code Content-Length}
 *       above 0): {@code malformed-request}. No route of any origin reads one (RFC 9110 section 9.3.1), and the status
 *       polls are answered ahead of every filter that could refuse it, so a client dribbling a chunked body on a poll
 *       would otherwise hold its connection until the read timeout ({@link BodyLimitWebFilter} has the other methods).
 * </ul>
 *
 * <p>Every request target passes a scan of its characters; only one with a character outside the always-valid ones,
 * or a {@code %} not followed by two hex digits, is parsed as {@link URI} to decide, as the adapter would.
 */
@Component
class RequestHeadGuard implements NettyServerCustomizer {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final boolean[] PLAIN = new boolean[128];

    static {
        String plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?";
        for (char c : plain.toCharArray()) {
            PLAIN[c] = true;
        }
    }

    private final Counter refused;

    RequestHeadGuard(MeterRegistry meters) {
        this.refused = Counter.builder("waitroom.gateway.requests.malformed.head")
                .description(
                        "Requests refused on their head alone (a target that is not a URI, a GET with a body), the connection closed")
                .register(meters);
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnChannelInit((observer, channel, remote) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, "waitroom.requestHead", new Handler());
            }
        });
    }

    /** The problem a request's head earns, or {@code null} when it may go on. */
    static ProblemType problemOf(HttpRequest request) {
        ProblemType target = problemOf(request.uri());
        if (target != null) {
            return target;
        }
        HttpMethod method = request.method();
        boolean bodiless = HttpMethod.GET.equals(method)
                || HttpMethod.HEAD.equals(method)
                || HttpMethod.OPTIONS.equals(method)
                || HttpMethod.TRACE.equals(method);
        return bodiless && announcesBody(request) ? ProblemType.MALFORMED_REQUEST : null;
    }

    private static boolean announcesBody(HttpRequest request) {
        if (request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return true;
        }
        String length = request.headers().get(HttpHeaderNames.CONTENT_LENGTH);
        return length != null && !length.equals("0");
    }

    /** The problem a request target earns, or {@code null} when it is a URI the adapter accepts. */
    static ProblemType problemOf(String target) {
        if (plain(target)) {
            return null;
        }
        try {
            new URI(target);
            return null;
        } catch (URISyntaxException e) {
            int query = target.indexOf('?');
            return query >= 0 && e.getIndex() > query ? ProblemType.MALFORMED_REQUEST : ProblemType.BAD_PATH;
        }
    }

    private static boolean plain(String target) {
        int length = target.length();
        for (int i = 0; i < length; i++) {
            char c = target.charAt(i);
            if (c == '%') {
                if (i + 2 >= length || !hex(target.charAt(i + 1)) || !hex(target.charAt(i + 2))) {
                    return false;
                }
                i += 2;
            } else if (c >= 128 || !PLAIN[c]) {
                return false;
            }
        }
        return true;
    }

    private static boolean hex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    static byte[] body(ProblemType problem, String detail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.type().toString());
        body.put("title", problem.title());
        body.put("status", problem.status());
        body.put("detail", detail);
        return JSON.writeValueAsBytes(body);
    }

    private static String detail(ProblemType problem, HttpRequest request) {
        if (problem == ProblemType.BAD_PATH) {
            return "The path has a '%' not followed by two hex digits, or a character a URL cannot hold.";
        }
        return problemOf(request.uri()) != null
                ? "The query has a '%' not followed by two hex digits, or a character a URL cannot hold."
                : "A " + request.method().name() + " request takes no body; it is sent without one.";
    }

    /** Refuses the request and drops everything after it on this connection: it is closed once the answer is out. */
    private final class Handler extends ChannelInboundHandlerAdapter {

        private boolean refusing;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (refusing) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof HttpRequest request) {
                ProblemType problem = problemOf(request);
                if (problem != null) {
                    refusing = true;
                    refused.increment();
                    String detail = detail(problem, request);
                    ReferenceCountUtil.release(msg);
                    ctx.writeAndFlush(response(problem, detail)).addListener(ChannelFutureListener.CLOSE);
                    return;
                }
            }
            ctx.fireChannelRead(msg);
        }

        private FullHttpResponse response(ProblemType problem, String detail) {
            byte[] bytes = body(problem, detail);
            FullHttpResponse response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(problem.status()), Unpooled.wrappedBuffer(bytes));
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
                    .set(HttpHeaderNames.CONTENT_LENGTH, bytes.length)
                    .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            return response;
        }
    }
}
