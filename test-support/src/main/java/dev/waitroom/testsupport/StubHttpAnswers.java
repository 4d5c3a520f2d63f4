package dev.waitroom.testsupport;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/** How a stand-in service on the JDK's {@code HttpServer} answers, the way the real services do. */
public final class StubHttpAnswers {

    private StubHttpAnswers() {}

    /**
     * Sends {@code status} with {@code json} as the body: {@code application/json}, or {@code application/problem+json}
     * from 400 on (RFC 9457); an empty body is sent as none, without a {@code Content-Type}.
     */
    public static void json(HttpExchange exchange, int status, byte[] json) throws IOException {
        if (json.length > 0) {
            exchange.getResponseHeaders()
                    .set("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
        }
        exchange.sendResponseHeaders(status, json.length == 0 ? -1 : json.length);
        if (json.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(json);
            }
        }
    }
}
