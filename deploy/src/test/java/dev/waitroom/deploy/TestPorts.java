package dev.waitroom.deploy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Free loopback ports for a test stack, all held at once so no two are the same. */
final class TestPorts {

    private TestPorts() {}

    static int[] free(int count) throws IOException {
        int[] ports = new int[count];
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                socket.bind(new InetSocketAddress("127.0.0.1", 0));
                held.add(socket);
                ports[i] = socket.getLocalPort();
            }
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
        return ports;
    }
}
