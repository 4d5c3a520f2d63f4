package dev.waitroom.deploy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Free loopback ports for a test stack, all held at once so no two are the same. Each comes with its management port
 * ({@code port + StackConfig.MANAGEMENT_OFFSET}) free too, since a process of the stack takes both.
 */
final class TestPorts {

    private static final int ATTEMPTS = 200;

    private TestPorts() {}

    static int[] free(int count) throws IOException {
        int[] ports = new int[count];
        List<ServerSocket> held = new ArrayList<>();
        Set<Integer> taken = new HashSet<>();
        try {
            int found = 0;
            for (int attempt = 0; found < count && attempt < ATTEMPTS * count; attempt++) {
                ServerSocket socket = bind(0);
                int port = socket.getLocalPort();
                int management = port + StackConfig.MANAGEMENT_OFFSET;
                ServerSocket pair = management <= 65_535 && !taken.contains(port) && !taken.contains(management)
                        ? tryBind(management)
                        : null;
                held.add(socket);
                if (pair == null) {
                    continue;
                }
                held.add(pair);
                taken.add(port);
                taken.add(management);
                ports[found++] = port;
            }
            if (found < count) {
                throw new IOException("could not find " + count + " free ports with their management ports free");
            }
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
        return ports;
    }

    private static ServerSocket bind(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress("127.0.0.1", port));
        return socket;
    }

    private static ServerSocket tryBind(int port) {
        try {
            return bind(port);
        } catch (IOException busy) {
            return null;
        }
    }
}
