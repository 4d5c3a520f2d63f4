package dev.waitroom.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Debian's nginx in the foreground under a private prefix, listening on one loopback port, for the tests that put a
 * shop behind nginx and the gateway's forward auth (docs/integration/forward-auth.md). The binary is
 * {@code -Dwaitroom.nginx} (or {@code WAITROOM_NGINX}) when set, else nginx-light through {@link TestTools}, which
 * fails under CI when it is missing. Its output is kept in the prefix's {@code nginx.out}.
 */
public final class NginxProcess implements AutoCloseable {

    private final Process process;

    private final int port;

    private NginxProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts nginx with one {@code server} listening on {@code 127.0.0.1:port} whose body is {@code server} (locations,
     * {@code root}), and waits until it accepts connections (10 s at most).
     */
    public static NginxProcess start(Path prefix, int port, String server) {
        try {
            Files.createDirectories(prefix);
            Path conf = prefix.resolve("nginx.conf");
            Files.writeString(conf, configuration(prefix, port, server));
            Path out = prefix.resolve("nginx.out");
            Process process = new ProcessBuilder(binary().toString(), "-p", prefix.toString(), "-c", conf.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            NginxProcess nginx = new NginxProcess(process, port);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!nginx.listening()) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException(
                            "nginx did not start listening on " + port + ": " + Files.readString(out));
                }
                process.waitFor(50, TimeUnit.MILLISECONDS);
            }
            return nginx;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The locations docs/integration/forward-auth.md gives every shop: the internal sub-request to the gateway's
     * {@code /forward-auth} ({@code auth_request /_waitroom}), and {@code @waitroom_refused}, which sends a browser the
     * gateway refused to the waiting page it names and answers anyone else 401.
     */
    public static String forwardAuthLocations(int gatewayPort) {
        return """
                location @waitroom_refused {
                  if ($waitroom_waiting) {
                    return 303 $waitroom_waiting;
                  }
                  return 401;
                }
                location = /_waitroom {
                  internal;
                  proxy_pass http://127.0.0.1:%d/forward-auth;
                  proxy_pass_request_body off;
                  proxy_set_header Content-Length "";
                  proxy_set_header X-Original-URI $request_uri;
                  proxy_set_header X-Original-Method $request_method;
                  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                }
                """.formatted(gatewayPort);
    }

    /** The port it listens on. */
    public int port() {
        return this.port;
    }

    @Override
    public void close() {
        this.process.destroy();
        try {
            if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
                this.process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean listening() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Path binary() {
        String configured = System.getProperty("waitroom.nginx", System.getenv("WAITROOM_NGINX"));
        if (configured != null && !configured.isBlank() && Files.isExecutable(Path.of(configured))) {
            return Path.of(configured);
        }
        return TestTools.require("nginx");
    }

    /** One process in the foreground; logs, pid and temporary files under the prefix; no access log. */
    private static String configuration(Path prefix, int port, String server) {
        return """
                master_process off;
                daemon off;
                error_log %1$s/error.log warn;
                pid %1$s/nginx.pid;
                events { worker_connections 64; }
                http {
                  access_log off;
                  client_body_temp_path %1$s/body;
                  proxy_temp_path %1$s/proxy;
                  fastcgi_temp_path %1$s/fastcgi;
                  uwsgi_temp_path %1$s/uwsgi;
                  scgi_temp_path %1$s/scgi;
                  server {
                    listen 127.0.0.1:%2$d;
                %3$s  }
                }
                """.formatted(prefix, port, server.indent(4));
    }
}
