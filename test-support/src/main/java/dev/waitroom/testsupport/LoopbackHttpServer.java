package dev.waitroom.testsupport;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A real HTTP server on {@code 127.0.0.1} at a free port, standing in for another service in a test: the JDK's
 * {@code HttpServer} with every path sent to one handler. Started when made; {@link #close()} stops it.
 */
public final class LoopbackHttpServer implements AutoCloseable {

    private static final int BACKLOG = 200;

    private final HttpServer server;
    private final ExecutorService threads;

    private LoopbackHttpServer(HttpHandler handler, ExecutorService threads) {
        try {
            this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), BACKLOG);
        } catch (IOException e) {
            throw new UncheckedIOException("no loopback HTTP server", e);
        }
        this.threads = threads;
        server.setExecutor(threads);
        server.createContext("/", handler);
        server.start();
    }

    /** Requests answered one at a time, on the server's own thread. */
    public static LoopbackHttpServer start(HttpHandler handler) {
        return new LoopbackHttpServer(handler, null);
    }

    /** Requests answered on {@code threads} threads at once. */
    public static LoopbackHttpServer start(HttpHandler handler, int threads) {
        return new LoopbackHttpServer(handler, Executors.newFixedThreadPool(threads));
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Stops at once, answering nothing more. */
    @Override
    public void close() {
        server.stop(0);
        if (threads != null) {
            threads.shutdownNow();
        }
    }
}
