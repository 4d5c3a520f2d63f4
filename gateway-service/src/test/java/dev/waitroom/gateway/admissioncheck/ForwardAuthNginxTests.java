package dev.waitroom.gateway.admissioncheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.waitroom.contract.routes.ProtectedPath;
import dev.waitroom.contract.routes.Protection;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.CoordinatorPushes;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubCoordinator.Issued;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.NginxProcess;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.verifier.AdmissionKeys;
import dev.waitroom.verifier.AdmissionVerifier;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An origin behind Debian's nginx with {@code auth_request} against the gateway's {@code /forward-auth}, configured as
 * docs/integration/forward-auth.md says: an admitted shopper's request reaches the origin with a {@code
 * Waitroom-Admission} the origin verifies (a client's own copy replaced), one without an admission is refused with 401
 * and never reaches it. Needs nginx with the auth_request module: {@code nginx} on the PATH, {@code /usr/sbin/nginx}
 * (Debian's {@code nginx-light}, which {@code ./waitroom test} installs), or {@code -Dwaitroom.nginx=<binary>}.
 */
@GatewayIntegrationTest
class ForwardAuthNginxTests {

    @LocalServerPort
    int port;

    @TempDir
    Path dir;

    final StubUpstreams upstreams = StubUpstreams.get();

    final List<String> admissionsAtOrigin = new CopyOnWriteArrayList<>();

    HttpServer origin;

    NginxProcess nginx;

    int nginxPort;

    @BeforeEach
    void startOriginAndNginx() throws Exception {
        origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        origin.createContext("/", exchange -> {
            admissionsAtOrigin.add(String.valueOf(exchange.getRequestHeaders().getFirst(AdmissionHeader.NAME)));
            byte[] body = "origin".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        origin.start();
        nginxPort = freePort();
        nginx = NginxProcess.start(dir, nginxPort, locations(origin.getAddress().getPort(), port));
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (nginx != null) {
            nginx.close();
        }
        if (origin != null) {
            origin.stop(0);
        }
    }

    /** The locations of docs/integration/forward-auth.md, with the test's ports. */
    static String locations(int originPort, int gatewayPort) {
        return """
                location /events/ {
                  auth_request /_waitroom;
                  auth_request_set $waitroom_admission $upstream_http_waitroom_admission;
                  proxy_set_header Waitroom-Admission $waitroom_admission;
                  proxy_pass http://127.0.0.1:%1$d;
                }
                # any path an event protects, with unadmitted browsers sent to the waiting page and back
                location /concerts/ {
                  auth_request /_waitroom;
                  auth_request_set $waitroom_admission $upstream_http_waitroom_admission;
                  auth_request_set $waitroom_waiting $upstream_http_waitroom_waiting_room;
                  error_page 401 = @waitroom_refused;
                  proxy_set_header Waitroom-Admission $waitroom_admission;
                  proxy_pass http://127.0.0.1:%1$d;
                }
                """.formatted(originPort) + NginxProcess.forwardAuthLocations(gatewayPort);
    }

    @Test
    void anAdmittedRequestReachesTheOriginWithAHeaderItVerifiesAndOthersDoNot() throws Exception {
        Browser atGateway = new Browser(port);
        String event = "ng-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        assertThat(atGateway.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String cookie = atGateway.cookie("wr_vid").orElseThrow();
        String visitor = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY))
                .decode(cookie)
                .value();
        Issued issued = upstreams.coordinator.admit(event, visitor, 1);
        Browser throughNginx = new Browser(nginxPort);
        throughNginx.setCookie("wr_vid", cookie, "/");
        String seats = "/events/" + event + "/shop/seats";

        Browser.Reply refused = throughNginx.get(seats);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(admissionsAtOrigin).isEmpty();

        Browser.Reply admitted = throughNginx.get(
                seats + "?page=2", "Authorization", "Bearer " + issued.token(), AdmissionHeader.NAME, "forged");
        assertThat(admitted.status()).as(admitted.toString()).isEqualTo(200);
        assertThat(admitted.body()).isEqualTo("origin");
        assertThat(admissionsAtOrigin).hasSize(1);
        AdmissionVerifier verifier = AdmissionVerifier.builder()
                .keys(AdmissionKeys.fromUrl(
                        URI.create("http://127.0.0.1:" + port + AdmissionHeaders.JWKS_PATH), Duration.ofMinutes(5)))
                .audience("booking")
                .eventId(event)
                .build();
        assertThat(verifier.verify(admissionsAtOrigin.get(0), "GET", seats).sessionId())
                .isEqualTo(issued.sessionId());

        upstreams.registry.end(event, issued.sessionId());
        Browser.Reply ended = throughNginx.get(seats, "Authorization", "Bearer " + issued.token());
        assertThat(ended.status()).isEqualTo(401);
        assertThat(admissionsAtOrigin).hasSize(1);
    }

    @Test
    void aPathAnyEventProtectsSendsAnUnadmittedBrowserToTheWaitingPageAndAnAdmittedOneToTheOrigin() throws Exception {
        Browser atGateway = new Browser(port);
        String event = "ngc-" + UUID.randomUUID().toString().substring(0, 12);
        String seats = "/concerts/" + event + "/seats";
        new CoordinatorPushes()
                .protect(
                        event,
                        new Protection(
                                Protection.origin("http://127.0.0.1:"
                                        + origin.getAddress().getPort()),
                                null,
                                List.of(ProtectedPath.of("/concerts/" + event + "/**")),
                                List.of()));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(atGateway
                                .get("/forward-auth", "X-Original-URI", seats, "X-Original-Method", "GET")
                                .status())
                        .isEqualTo(401));
        upstreams.queue.event(event);
        assertThat(atGateway.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String cookie = atGateway.cookie("wr_vid").orElseThrow();
        String visitor = VisitorCookieCodec.of(HmacKey.fromBase64(StubUpstreams.VISITOR_KEY))
                .decode(cookie)
                .value();
        Browser throughNginx = new Browser(nginxPort);
        throughNginx.setCookie("wr_vid", cookie, "/");

        Browser.Reply navigation = throughNginx.get(seats + "?row=A", "Accept", "text/html");
        assertThat(navigation.status()).as(navigation.toString()).isEqualTo(303);
        assertThat(navigation.header("Location"))
                .hasValueSatisfying(location -> assertThat(location)
                        .endsWith("/events/" + event + "?return="
                                + URLEncoder.encode(seats + "?row=A", StandardCharsets.UTF_8)));
        assertThat(throughNginx.get(seats, "Accept", "application/json").status())
                .isEqualTo(401);
        assertThat(admissionsAtOrigin).isEmpty();

        Issued issued = upstreams.coordinator.admit(event, visitor, 1);
        Browser.Reply admitted = throughNginx.get(seats, "Authorization", "Bearer " + issued.token());
        assertThat(admitted.status()).as(admitted.toString()).isEqualTo(200);
        assertThat(admitted.body()).isEqualTo("origin");
        AdmissionVerifier verifier = AdmissionVerifier.builder()
                .keys(AdmissionKeys.fromUrl(
                        URI.create("http://127.0.0.1:" + port + AdmissionHeaders.JWKS_PATH), Duration.ofMinutes(5)))
                .audience("booking")
                .eventId(event)
                .build();
        assertThat(verifier.verify(admissionsAtOrigin.get(0), "GET", seats).sessionId())
                .isEqualTo(issued.sessionId());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
