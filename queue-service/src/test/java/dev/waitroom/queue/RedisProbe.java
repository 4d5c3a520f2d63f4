package dev.waitroom.queue;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A bare RESP connection for measurements the client library does not expose (INFO, MEMORY USAGE, SCAN). */
final class RedisProbe implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RedisProbe(String host, int port) throws IOException {
        socket = new Socket(host, port);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    Object call(String... args) throws IOException {
        StringBuilder b = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
            b.append('$').append(bytes.length).append("\r\n").append(a).append("\r\n");
        }
        out.write(b.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        return read();
    }

    String info(String section) throws IOException {
        return (String) call("INFO", section);
    }

    long usedMemory() throws IOException {
        String info = (String) call("INFO", "memory");
        for (String line : info.split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("no used_memory in INFO");
    }

    /** Sum of MEMORY USAGE over every key matching the pattern, and the number of keys. */
    long[] memoryUsageOf(String pattern) throws IOException {
        long total = 0;
        long keys = 0;
        String cursor = "0";
        do {
            @SuppressWarnings("unchecked")
            List<Object> reply = (List<Object>) call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = (String) reply.get(0);
            @SuppressWarnings("unchecked")
            List<Object> batch = (List<Object>) reply.get(1);
            for (Object key : batch) {
                Object usage = call("MEMORY", "USAGE", (String) key, "SAMPLES", "0");
                total += (Long) usage;
                keys++;
            }
        } while (!cursor.equals("0"));
        return new long[] {total, keys};
    }

    private Object read() throws IOException {
        int type = in.read();
        String line = line();
        return switch (type) {
            case '+' -> line;
            case '-' -> throw new IOException(line);
            case ':' -> Long.parseLong(line);
            case '$' -> {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    yield null;
                }
                byte[] data = in.readNBytes(len);
                in.readNBytes(2);
                yield new String(data, StandardCharsets.UTF_8);
            }
            case '*' -> {
                int n = Integer.parseInt(line);
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    items.add(read());
                }
                yield items;
            }
            default -> throw new IOException("unexpected RESP type " + (char) type);
        };
    }

    private String line() throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            b.append((char) c);
        }
        in.read();
        return b.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
