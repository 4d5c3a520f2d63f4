package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.testsupport.NginxProcess;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 27, item 7 (first half): a plain static site nobody here wrote the protection for, Debian's nginx serving
 * files, protected through the gateway's forward-auth as docs/integration/forward-auth.md configures it, on the
 * launcher's real stack. An unadmitted deep link is sent to the waiting page with that link as its return target; the
 * buyer joins, is offered, claims; the waiting page's return target is accepted; the same deep link is then served by
 * nginx. Without an admission nginx refuses the protected files.
 */
@StackTest
@ExtendWith(SharedStack.class)
class StaticSiteBehindNginxTests {

    private static LocalStack stack;

    private static Path dataDir;

    private static NginxProcess nginx;

    private static int nginxPort;

    @BeforeAll
    static void start(LocalStack shared) throws Exception {
        dataDir = Files.createTempDirectory("waitroom-static-site-test");
        nginxPort = TestPorts.free(1)[0];
        stack = shared;
        Path site = Files.createDirectories(dataDir.resolve("nginx/site/concerts/123"));
        Files.writeString(site.resolve("seats.html"), "<!doctype html><title>Seats</title><p>Row A, seats 1-20");
        Files.writeString(dataDir.resolve("nginx/site/index.html"), "<!doctype html><title>Tickets</title>");
        nginx = NginxProcess.start(
                dataDir.resolve("nginx"),
                nginxPort,
                locations(
                        dataDir.resolve("nginx"), URI.create(stack.gatewayUrl()).getPort()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        TestStacks.deleteTree(dataDir);
    }

    /** docs/integration/forward-auth.md's locations for a static site, with the test's ports. */
    static String locations(Path dir, int gatewayPort) {
        return """
                root %1$s/site;
                location /concerts/ {
                  auth_request /_waitroom;
                  auth_request_set $waitroom_waiting $upstream_http_waitroom_waiting_room;
                  error_page 401 = @waitroom_refused;
                }
                location /events/ { proxy_pass http://127.0.0.1:%2$d; }
                location /assets/ { proxy_pass http://127.0.0.1:%2$d; }
                """.formatted(dir, gatewayPort) + NginxProcess.forwardAuthLocations(gatewayPort);
    }

    @Test
    void anUnadmittedDeepLinkGoesThroughTheWaitingRoomAndBackToTheSameFileServedByNginx() throws Exception {
        String event = "static-" + UUID.randomUUID().toString().substring(0, 8);
        String site = "http://127.0.0.1:" + nginxPort;
        String deepLink = "/concerts/123/seats.html";
        String body = """
                {"eventId":"%s","name":"Static site","maxActiveSessions":5,"maxAdmissionsPerSecond":5,
                 "protect":{"origin":"%s","paths":["/concerts/123/**"]}}""".formatted(event, site);
        HttpResponse<String> created = TestStacks.ops(stack, stack.gatewayUrl(), "POST", "/admin/events", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        ShopBuyer buyer = new ShopBuyer(site);
        // the route table reaches the gateway within a couple of seconds: until then forward-auth refuses the path
        HttpResponse<String> refused = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> buyer.navigate(site + deepLink + "?row=A"), r -> r.statusCode() == 303);
        String location = refused.headers().firstValue("Location").orElseThrow();
        assertThat(location)
                .endsWith("/events/" + event + "?return="
                        + URLEncoder.encode(deepLink + "?row=A", StandardCharsets.UTF_8));
        // an API client is refused by nginx without being redirected
        HttpResponse<String> api = ShopBuyer.send(HttpClient.newHttpClient(), ShopBuyer.api(site + deepLink));
        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(api.body()).doesNotContain("Row A");

        // the waiting page, served through nginx on the shop's host; the buyer joins, is offered and claims there,
        // and the page returns it to the deep link once the gateway accepts the target
        buyer.joinWaitAndClaim(event, location);
        String target = buyer.acceptedReturnTarget(event, location);
        assertThat(target).isEqualTo(deepLink + "?row=A");
        HttpResponse<String> back = buyer.navigate(site + target);
        assertThat(back.statusCode()).as(back.body()).isEqualTo(200);
        assertThat(back.body()).contains("Row A, seats 1-20");

        // another browser, without the admission, is still refused the same file
        HttpResponse<String> stranger = ShopBuyer.stranger(site + deepLink);
        assertThat(stranger.statusCode()).isEqualTo(303);
        assertThat(stranger.body()).doesNotContain("Row A");
        // the unprotected part of the site is served as it is
        assertThat(ShopBuyer.stranger(site + "/index.html").statusCode()).isEqualTo(200);
    }
}
