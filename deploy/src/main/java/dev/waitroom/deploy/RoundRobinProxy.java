package dev.waitroom.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A small TCP proxy in front of the instances of one service, standing in for the Kubernetes Service (kube-proxy) or
 * load balancer a deployment puts there: each new connection goes to the next instance round robin, skipping any that
 * refuses it, so callers keep reaching a live instance when one is killed. Like kube-proxy it balances connections,
 * not requests: a caller's keep-alive connection stays on one instance. Loopback only.
 */
final class RoundRobinProxy implements AutoCloseable {

    private final String service;
    private final ServerSocket server;
    private final List<Integer> backends;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLongArray connections;
    private final ExecutorService threads;

    private RoundRobinProxy(String service, ServerSocket server, List<Integer> backends) {
        this.service = service;
        this.server = server;
        this.backends = List.copyOf(backends);
        this.connections = new AtomicLongArray(backends.size());
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, service + "-proxy");
            t.setDaemon(true);
            return t;
        });
    }

    static RoundRobinProxy start(String service, int port, List<Integer> backends) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1024);
        RoundRobinProxy proxy = new RoundRobinProxy(service, server, backends);
        proxy.threads.execute(proxy::acceptLoop);
        return proxy;
    }

    String service() {
        return service;
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections handed to each instance so far, by instance port. */
    Map<Integer, Long> connectionsPerBackend() {
        Map<Integer, Long> counts = new LinkedHashMap<>();
        for (int i = 0; i < backends.size(); i++) {
            counts.put(backends.get(i), connections.get(i));
        }
        return counts;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                client.setTcpNoDelay(true);
                threads.execute(() -> serve(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        Socket backend = connect();
        if (backend == null) {
            close(client);
            return;
        }
        threads.execute(() -> pump(client, backend));
        pump(backend, client);
    }

    /** The next instance, round robin, skipping those that refuse the connection (a dead process on loopback). */
    private Socket connect() {
        int start = Math.floorMod(next.getAndIncrement(), backends.size());
        for (int i = 0; i < backends.size(); i++) {
            int index = (start + i) % backends.size();
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), backends.get(index)), 500);
                connections.incrementAndGet(index);
                return socket;
            } catch (IOException refused) {
                close(socket);
            }
        }
        return null;
    }

    private static void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException ended) {
            // either side closed
        } finally {
            close(from);
            close(to);
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        threads.shutdownNow();
    }
}
