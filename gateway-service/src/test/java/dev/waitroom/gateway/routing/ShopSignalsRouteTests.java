package dev.waitroom.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RecordedRequest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The shop signals' route (docs/integration/shop-signals.md): the three signals reach the coordinator with the shop's
 * own {@code Authorization} untouched and the internal credential the gateway adds (a client's copy never passes);
 * they are no visitor's requests, so no visitor cookie is minted and no visitor id sent; other methods and names are not
 * routed; a body over the gateway's limit is refused before anything is forwarded.
 */
@GatewayIntegrationTest
class ShopSignalsRouteTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    private List<RecordedRequest> received(String event, String signal) {
        return upstreams.coordinator.received(r -> r.path().equals("/events/" + event + "/signals/" + signal));
    }

    @Test
    void theThreeSignalsReachTheCoordinatorWithTheShopsCredentialAndNoVisitor() {
        String event = "sig-" + UUID.randomUUID().toString().substring(0, 8);
        String credential = "wric_0123456789abcdef_" + "A".repeat(43);
        for (String signal : List.of("purchase-completed", "sold-out", "session-release")) {
            Browser shop = new Browser(port);
            Browser.Reply reply = shop.post(
                    "/events/" + event + "/signals/" + signal,
                    "{\"sessionId\":\"" + UUID.randomUUID() + "\"}",
                    "Authorization",
                    "Bearer " + credential,
                    Headers.INTERNAL,
                    "forged-by-the-client",
                    Headers.VISITOR,
                    "forged-visitor");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            assertThat(reply.json().path("signal").asString()).isEqualTo(signal);
            assertThat(reply.allHeaders("Set-Cookie"))
                    .as("no visitor cookie for a shop's server")
                    .isEmpty();
            assertThat(shop.cookie("wr_vid")).isEmpty();

            List<RecordedRequest> arrived = received(event, signal);
            assertThat(arrived).hasSize(1);
            RecordedRequest request = arrived.get(0);
            assertThat(request.header("Authorization")).contains("Bearer " + credential);
            assertThat(request.header(Headers.INTERNAL)).contains(StubUpstreams.GATEWAY.credential());
            assertThat(request.header(Headers.VISITOR)).isEmpty();
        }
    }

    @Test
    void otherMethodsNamesAndOversizedBodiesAreNotForwarded() {
        String event = "sig-" + UUID.randomUUID().toString().substring(0, 8);
        Browser shop = new Browser(port);

        shop.get("/events/" + event + "/signals/sold-out").assertProblem(404, "not-found");
        shop.post("/events/" + event + "/signals/refund", "{}").assertProblem(404, "not-found");
        shop.post("/events/" + event + "/signals/sold-out", "{\"category\":\"" + "x".repeat(70_000) + "\"}")
                .assertProblem(413, "body-too-large");

        assertThat(upstreams.coordinator.received(r -> r.path().startsWith("/events/" + event + "/signals")))
                .isEmpty();
    }
}
