package dev.waitroom.deploy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Where this machine's listening TCP sockets are bound, read from the kernel's tables ({@code /proc/net/tcp} and
 * {@code tcp6}, Linux), and whether a port answers on a non-loopback address of this machine: what tells "reachable
 * only from this machine" from "reachable from the network".
 */
final class Listeners {

    private static final String LISTEN = "0A";

    private Listeners() {}

    /** The local addresses of every socket listening on {@code port}: empty when nothing listens there. */
    static List<InetAddress> boundAddresses(int port) throws IOException {
        List<InetAddress> addresses = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path file = Path.of(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                if (fields.length < 4 || !fields[3].equals(LISTEN)) {
                    continue;
                }
                String[] local = fields[1].split(":");
                if (Integer.parseInt(local[1], 16) == port) {
                    addresses.add(address(local[0]));
                }
            }
        }
        return addresses;
    }

    /** The kernel writes each 32-bit word of the address in host order (little-endian on x86 and arm64). */
    private static InetAddress address(String hex) throws UnknownHostException {
        byte[] raw = HexFormat.of().parseHex(hex);
        byte[] bytes = new byte[raw.length];
        for (int word = 0; word < raw.length; word += 4) {
            for (int i = 0; i < 4; i++) {
                bytes[word + i] = raw[word + 3 - i];
            }
        }
        return InetAddress.getByAddress(bytes);
    }

    /** An IPv4 address of this machine that is not loopback (what another machine would connect to), if any. */
    static Optional<InetAddress> nonLoopbackAddress() throws SocketException {
        return NetworkInterface.networkInterfaces()
                .filter(Listeners::isUp)
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                .findFirst();
    }

    /** True when a TCP connection to {@code address:port} is refused (nothing listens there for that address). */
    static boolean refused(InetAddress address, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2_000);
            return false;
        } catch (ConnectException e) {
            return true;
        }
    }

    private static boolean isUp(NetworkInterface nic) {
        try {
            return nic.isUp() && !nic.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }
}
