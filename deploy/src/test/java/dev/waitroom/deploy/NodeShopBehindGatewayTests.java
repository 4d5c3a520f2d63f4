package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.testsupport.TestTools;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 27, item 7 (second half): a tiny Node.js shop nobody here wrote the protection for ({@code
 * examples/node-shop/server.js}: plain {@code node:http} and the Node verifier of {@code verifiers/node}), with the
 * gateway in front of it on the launcher's real stack. An event's {@code protect} names the shop's origin and paths; an
 * unadmitted deep link through the gateway is sent to the waiting page with that link as its return target; the buyer
 * joins, is offered and claims; the return target is accepted; the same deep link is then served by the Node shop,
 * which saw a valid {@code Waitroom-Admission} for this event. The shop's own direct address refuses the protected
 * page without that header (tampered, replayed and mis-addressed headers: the verifiers' shared vectors).
 */
@StackTest
@ExtendWith(SharedStack.class)
class NodeShopBehindGatewayTests {

    private static final String EVENT = "node-" + UUID.randomUUID().toString().substring(0, 8);

    private static LocalStack stack;

    private static Process shop;

    private static int shopPort;

    @BeforeAll
    static void start(LocalStack shared) throws Exception {
        Path node = TestTools.require("node");
        stack = shared;
        Path server = Path.of(System.getProperty("waitroom.root", ".."))
                .toAbsolutePath()
                .normalize()
                .resolve("examples/node-shop/server.js");
        ProcessBuilder builder = new ProcessBuilder(node.toString(), server.toString()).redirectErrorStream(true);
        builder.environment().put("PORT", "0");
        builder.environment().put("WAITROOM_JWKS_URL", stack.gatewayUrl() + "/.well-known/waitroom-admission-keys");
        builder.environment().put("WAITROOM_AUDIENCE", "booking");
        builder.environment().put("WAITROOM_EVENT", EVENT);
        shop = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(shop.getInputStream(), StandardCharsets.UTF_8));
        String first = CompletableFuture.supplyAsync(() -> {
                    try {
                        return out.readLine();
                    } catch (java.io.IOException e) {
                        return null;
                    }
                })
                .get(20, TimeUnit.SECONDS);
        assertThat(first).as("the shop's first line").startsWith("listening ");
        shopPort = Integer.parseInt(first.substring("listening ".length()).trim());
    }

    @AfterAll
    static void stop() throws Exception {
        if (shop != null) {
            shop.destroy();
            shop.waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void anUnadmittedDeepLinkGoesThroughTheWaitingRoomAndBackToTheSamePageServedByTheNodeShop() throws Exception {
        String gateway = stack.gatewayUrl();
        String origin = "http://127.0.0.1:" + shopPort;
        String deepLink = "/concerts/456/seats";
        String body = """
                {"eventId":"%s","name":"Node shop","maxActiveSessions":5,"maxAdmissionsPerSecond":5,
                 "protect":{"origin":"%s","paths":["/concerts/456/**"]}}""".formatted(EVENT, origin);
        HttpResponse<String> created = TestStacks.ops(stack, gateway, "POST", "/admin/events", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        ShopBuyer buyer = new ShopBuyer(gateway);
        // the route table reaches the gateway within a couple of seconds
        HttpResponse<String> refused = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> buyer.navigate(gateway + deepLink + "?section=B"), r -> r.statusCode() == 303);
        String location = refused.headers().firstValue("Location").orElseThrow();
        assertThat(location)
                .endsWith("/events/" + EVENT + "?return="
                        + URLEncoder.encode(deepLink + "?section=B", StandardCharsets.UTF_8));
        assertThat(refused.body()).doesNotContain("node-shop");

        // the shop's own address, without the gateway: refused by the Node verifier
        HttpResponse<String> direct = ShopBuyer.stranger(origin + deepLink);
        assertThat(direct.statusCode()).isEqualTo(401);
        assertThat(ShopBuyer.json(direct).path("reason").asString()).isEqualTo("missing");
        assertThat(ShopBuyer.stranger(origin + "/").statusCode())
                .as("the shop's unprotected pages need nothing")
                .isEqualTo(200);

        // the waiting page; join, offer, claim, all through the gateway; then back to the deep link
        String session =
                buyer.joinWaitAndClaim(EVENT, location).path("sessionId").asString();
        HttpResponse<String> back = buyer.navigate(gateway + buyer.acceptedReturnTarget(EVENT, location));
        assertThat(back.statusCode()).as(back.body()).isEqualTo(200);
        assertThat(back.body())
                .as("served by the Node shop, which verified the admission for this event and session")
                .contains("node-shop " + deepLink)
                .contains("data-event=\"" + EVENT + "\"")
                .contains("data-scope=\"shopping\"")
                .contains("data-session=\"" + session + "\"");

        // another browser without the admission is still sent to the queue
        assertThat(ShopBuyer.stranger(gateway + deepLink).statusCode()).isEqualTo(303);
    }
}
