package dev.waitroom.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small TCP proxy in front of several coordinator instances, standing in for the Kubernetes Service or load
 * balancer a deployment puts there: each connection goes to the next instance that accepts it, so the gateway and
 * booking keep reaching a live coordinator when one is killed. Loopback only.
 */
final class FailoverProxy implements AutoCloseable {

    private final ServerSocket server;
    private final List<Integer> backends;
    private final AtomicInteger next = new AtomicInteger();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "coordinator-proxy");
        t.setDaemon(true);
        return t;
    });

    private FailoverProxy(ServerSocket server, List<Integer> backends) {
        this.server = server;
        this.backends = List.copyOf(backends);
    }

    static FailoverProxy start(int port, List<Integer> backends) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        FailoverProxy proxy = new FailoverProxy(server, backends);
        proxy.threads.execute(proxy::acceptLoop);
        return proxy;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
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

    /** The next instance, round robin, skipping those that refuse the connection. */
    private Socket connect() {
        int start = Math.floorMod(next.getAndIncrement(), backends.size());
        for (int i = 0; i < backends.size(); i++) {
            int port = backends.get((start + i) % backends.size());
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                return socket;
            } catch (IOException refused) {
                close(socket);
            }
        }
        return null;
    }

    private static void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
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
