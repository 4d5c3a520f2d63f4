package dev.waitroom.deploy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Redis spoken over a bare socket, one command at a time, answering the first line of the reply: enough to see
 * whether the server lets a client in, with no client library that would authenticate on its own.
 */
final class RedisWire implements AutoCloseable {

    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;

    RedisWire(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        socket.setSoTimeout(5_000);
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        out = socket.getOutputStream();
    }

    /** Sends one command (RESP array of bulk strings); returns the reply's first line, e.g. {@code +PONG}. */
    String call(String... arguments) throws IOException {
        StringBuilder command = new StringBuilder("*").append(arguments.length).append("\r\n");
        for (String argument : arguments) {
            byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
            command.append('$')
                    .append(bytes.length)
                    .append("\r\n")
                    .append(argument)
                    .append("\r\n");
        }
        out.write(command.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        String line = in.readLine();
        if (line != null && line.startsWith("$") && !line.equals("$-1")) {
            in.readLine();
        }
        return line;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
