package dev.waitroom.gateway.guard;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A client on a raw socket: the request exactly as written, its answer read as it arrives. */
final class RawHttp implements AutoCloseable {

    private final Socket socket;

    private final OutputStream out;

    private final InputStream in;

    RawHttp(int port, int timeoutMillis) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(timeoutMillis);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** Writes the text (LF becomes CRLF) and flushes. */
    RawHttp send(String text) throws IOException {
        out.write(text.replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return this;
    }

    /** Writes one chunk of {@code size} bytes of {@code a}. */
    RawHttp chunk(int size) throws IOException {
        out.write((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write("a".repeat(size).getBytes(StandardCharsets.US_ASCII));
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return this;
    }

    /** Like {@link #chunk}, but a connection the server closed already (it answered without reading) is no failure. */
    void chunkUnlessClosed(int size) {
        try {
            chunk(size);
        } catch (IOException closed) {
            // the server's answer is still there to read
        }
    }

    /** The status line, headers and body (by its {@code Content-Length}) of the next answer. */
    String answer() throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            head.append((char) c);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        String text = head.toString();
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(
                        line.substring("content-length:".length()).trim());
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(in.readNBytes(length));
        return text + body.toString(StandardCharsets.UTF_8);
    }

    /** Whether the server closed the connection (end of stream) within the socket's timeout. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset: closed as well
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
