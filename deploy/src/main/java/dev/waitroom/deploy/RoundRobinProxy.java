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
 *
 * <p>It is also where the chaos run's nemesis breaks the network between services (docs/operating/chaos.md): a
 * {@link NetworkFault} adds latency, refuses new connections with a reset, or withholds every answer (a one-way
 * partition: requests arrive, replies do not), and {@link #resetConnections} resets the open ones. With no fault it
 * passes bytes as they come.
 */
final class RoundRobinProxy implements AutoCloseable {

    private final String service;
    private final ServerSocket server;
    private final List<Integer> backends;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLongArray connections;
    private final ExecutorService threads;
    private final java.util.Set<Socket> open = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile NetworkFault fault = NetworkFault.NONE;

    /**
     * A fault on the network through this proxy: {@code latencyMillis} before each chunk either way, new connections
     * reset at once ({@code refuseNew}), or answers withheld until healed ({@code oneWay}).
     */
    record NetworkFault(long latencyMillis, boolean refuseNew, boolean oneWay) {
        static final NetworkFault NONE = new NetworkFault(0, false, false);
    }

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

    /** Puts {@code fault} on every connection, open or new, until {@link #heal}. */
    void inject(NetworkFault fault) {
        this.fault = fault;
    }

    void heal() {
        this.fault = NetworkFault.NONE;
    }

    NetworkFault fault() {
        return fault;
    }

    /** Resets every open connection (TCP RST), as a middlebox dropping its state would. */
    void resetConnections() {
        for (Socket socket : open) {
            reset(socket);
        }
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
        if (fault.refuseNew()) {
            reset(client);
            return;
        }
        Socket backend = connect();
        if (backend == null) {
            close(client);
            return;
        }
        open.add(client);
        open.add(backend);
        threads.execute(() -> pump(client, backend, false));
        pump(backend, client, true);
        open.remove(client);
        open.remove(backend);
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

    private void pump(Socket from, Socket to, boolean answers) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                NetworkFault now = fault;
                while (answers && now.oneWay() && !to.isClosed()) {
                    Thread.sleep(50);
                    now = fault;
                }
                if (now.latencyMillis() > 0) {
                    Thread.sleep(now.latencyMillis());
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException ended) {
            // either side closed
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } finally {
            close(from);
            close(to);
        }
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed
        }
        close(socket);
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
